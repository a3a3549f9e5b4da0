-- KEYS: the cached copy, its version. ARGV: the version's ttl. Moves the version (a fill in flight stores nothing) and
-- drops the copy.
redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], ARGV[1])
redis.call('del', KEYS[1])
return 1
