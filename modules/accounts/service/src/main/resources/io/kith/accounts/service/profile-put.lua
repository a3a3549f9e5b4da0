local cur = redis.call('hget', KEYS[1], 'v')
if cur and tonumber(cur) >= tonumber(ARGV[2]) then return 0 end
redis.call('hset', KEYS[1], 'doc', ARGV[1], 'v', ARGV[2])
redis.call('expire', KEYS[1], ARGV[3])
return 1
