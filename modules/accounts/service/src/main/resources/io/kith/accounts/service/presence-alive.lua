-- returns 1 when the user had no live connection before the heartbeat (offline to online)
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
local before = redis.call('zcard', KEYS[1])
for i = 5, #ARGV do redis.call('zadd', KEYS[1], ARGV[2], ARGV[i]) end
redis.call('pexpire', KEYS[1], ARGV[3])
local over = redis.call('zcard', KEYS[1]) - tonumber(ARGV[4])
if over > 0 then redis.call('zpopmin', KEYS[1], over) end
if before == 0 then return 1 end
return 0
