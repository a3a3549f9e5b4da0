-- KEYS: the set, its generation. ARGV: member, score (unused), ttl. Moves the generation, then removes the member.
redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], 2 * ARGV[3])
redis.call('zrem', KEYS[1], ARGV[1])
return 1
