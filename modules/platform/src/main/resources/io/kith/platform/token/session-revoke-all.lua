local sids = redis.call('zrange', KEYS[1], 0, -1)
for _, s in ipairs(sids) do redis.call('del', ARGV[1] .. s) end
redis.call('del', KEYS[1])
return sids
