-- replaces the view at score ARGV[1] by ARGV[3] only while it is exactly ARGV[2] (a recall in between wins)
local cur = redis.call('zrangebyscore', KEYS[1], ARGV[1], ARGV[1])
if #cur ~= 1 or cur[1] ~= ARGV[2] then return 0 end
redis.call('zrem', KEYS[1], ARGV[2])
redis.call('zadd', KEYS[1], ARGV[1], ARGV[3])
return 1
