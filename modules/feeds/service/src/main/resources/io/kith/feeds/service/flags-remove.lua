-- KEYS: the set, its generation. ARGV: member, score (unused), ttl. Moves the generation, then removes the member
-- and renews the set's expiry (reads do not; EXPIRE of a missing set does nothing).
redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], 2 * ARGV[3])
redis.call('zrem', KEYS[1], ARGV[1]) redis.call('expire', KEYS[1], ARGV[3])
return 1
