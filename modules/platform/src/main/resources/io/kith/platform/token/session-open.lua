redis.call('hset', KEYS[1], 'device', ARGV[1], 'created', ARGV[2], 'last_used', ARGV[2], 'hash', ARGV[3])
redis.call('pexpire', KEYS[1], ARGV[4])
-- the index score orders sessions by creation: keep it strictly increasing so that sessions opened in the
-- same millisecond (or on a node whose clock lags) still rank newest, and the oldest is the one dropped
local score = tonumber(ARGV[2])
local top = redis.call('zrevrange', KEYS[2], 0, 0, 'WITHSCORES')
if top[2] and tonumber(top[2]) >= score then score = tonumber(top[2]) + 1 end
redis.call('zadd', KEYS[2], string.format('%d', score), ARGV[5])
redis.call('pexpire', KEYS[2], ARGV[4])
local n = redis.call('zcard', KEYS[2]) - tonumber(ARGV[6])
if n > 0 then
  local old = redis.call('zpopmin', KEYS[2], n)
  for i = 1, #old, 2 do redis.call('del', ARGV[7] .. old[i]) end
  return old
end
return {}
