local last = redis.call('get', KEYS[2]) or '0'
local reset = 1
if ARGV[1] ~= '' then
  local after = tonumber(ARGV[1])
  local top = tonumber(last)
  if after == top then reset = 0
  elseif after < top then
    local oldest = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
    if oldest[1] and (tonumber(oldest[2]) <= after + 1
        or string.find(oldest[1], '"kind":"clear"', 1, true)) then reset = 0 end
  end
end
local min = '-inf'
if reset == 0 then min = '(' .. ARGV[1] end
return {last, reset, redis.call('zrangebyscore', KEYS[1], min, '+inf', 'LIMIT', 0, ARGV[2])}
