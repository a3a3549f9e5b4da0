redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
local before = redis.call('zcard', KEYS[1])
redis.call('zadd', KEYS[1], ARGV[2], ARGV[3])
redis.call('pexpire', KEYS[1], ARGV[4])
if redis.call('zcard', KEYS[1]) > tonumber(ARGV[5]) then redis.call('zpopmin', KEYS[1]) end
return before
