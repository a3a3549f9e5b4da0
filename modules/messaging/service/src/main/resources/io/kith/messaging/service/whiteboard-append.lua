if redis.call('exists', KEYS[2]) == 0 then redis.call('set', KEYS[2], ARGV[4]) end
local seq = string.format('%d', redis.call('incr', KEYS[2]))
if ARGV[5] == '1' then redis.call('del', KEYS[1], KEYS[3]) end
local total = tonumber(redis.call('get', KEYS[3]) or '-1')
if total < 0 then
  total = 0
  for _, e in ipairs(redis.call('zrange', KEYS[1], 0, -1)) do total = total + string.len(e) end
end
local entry = '{"seq":' .. seq .. ',' .. ARGV[1]
redis.call('zadd', KEYS[1], seq, entry)
total = total + string.len(entry)
local keep = tonumber(ARGV[2])
local max = tonumber(ARGV[6])
local n = redis.call('zcard', KEYS[1])
while n > 1 and (n > keep or total > max) do
  local old = redis.call('zrange', KEYS[1], 0, 0)
  redis.call('zremrangebyrank', KEYS[1], 0, 0)
  total = total - string.len(old[1])
  n = n - 1
end
redis.call('set', KEYS[3], string.format('%d', total), 'EX', ARGV[3])
redis.call('expire', KEYS[1], ARGV[3])
redis.call('expire', KEYS[2], ARGV[3])
return seq
