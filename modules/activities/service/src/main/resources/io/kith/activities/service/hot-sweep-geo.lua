local m = redis.call('zrangebyscore', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, id in ipairs(m) do redis.call('zrem', KEYS[1], id) redis.call('zrem', KEYS[2], id) end
return #m
