if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
local hw = tonumber(redis.call('get', KEYS[2]) or '0')
redis.call('set', KEYS[2], string.format('%d', math.max(hw, tonumber(ARGV[3])) + tonumber(ARGV[2])))
return hw else return -1 end
