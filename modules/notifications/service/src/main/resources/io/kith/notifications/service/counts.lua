-- Returns {-1} when the side is missing, else {1, counters}.
if not present() then return {-1} end
return {1, redis.call('hgetall', C)}
