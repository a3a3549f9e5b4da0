-- KEYS: the set, its generation. ARGV: the member, the generation's ttl. Bumps the generation (a rebuild in flight
-- stores nothing), then adds the member only to a set that exists (a missing one is rebuilt whole from the record).
redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], ARGV[2])
if redis.call('exists', KEYS[1]) == 1 then redis.call('sadd', KEYS[1], ARGV[1]) end
return 1
