if redis.call('get', KEYS[1]) == ARGV[1] then
redis.call('set', KEYS[2], ARGV[2]); return redis.call('del', KEYS[1]) else return 0 end
