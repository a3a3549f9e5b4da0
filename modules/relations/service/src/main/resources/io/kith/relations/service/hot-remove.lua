-- KEYS: the set, its generation. ARGV: the member, the generation's ttl. Bumps the generation, then removes the member.
redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], ARGV[2])
redis.call('srem', KEYS[1], ARGV[1])
return 1
