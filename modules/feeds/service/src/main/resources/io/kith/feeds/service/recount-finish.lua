local score = redis.call('zscore', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
local last = tonumber(redis.call('hget', KEYS[2], ARGV[1]) or '0')
if last >= tonumber(ARGV[3]) then
  redis.call('zadd', KEYS[1], ARGV[4], ARGV[1])
  return 0
end
redis.call('zrem', KEYS[1], ARGV[1])
redis.call('hdel', KEYS[2], ARGV[1])
return 1
