if redis.call('get', KEYS[1]) == ARGV[1] then
redis.call('pexpire', KEYS[1], ARGV[2]); redis.call('set', KEYS[2], ARGV[3]); return 1
else return 0 end
