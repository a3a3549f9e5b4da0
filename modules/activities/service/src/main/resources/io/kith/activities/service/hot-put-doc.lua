local cur = tonumber(redis.call('hget', KEYS[1], 'v') or '-1')
local applied = 0
if tonumber(ARGV[1]) > cur then redis.call('hset', KEYS[1], 'v', ARGV[1], 'doc', ARGV[2]) applied = 1 end
if ARGV[4] == '1' then redis.call('hset', KEYS[1], 'loaded', '1') end
redis.call('pexpireat', KEYS[1], ARGV[3])
return applied
