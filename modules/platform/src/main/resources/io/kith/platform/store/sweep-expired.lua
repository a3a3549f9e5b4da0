-- KEYS: a sorted set (such as a geo set), the sorted set of its members' deadlines. ARGV: now. Removes up to 1,000
-- members whose deadline has passed from both, in one step, so a member renewed meanwhile is never swept. Returns how
-- many.
local m = redis.call('zrangebyscore', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, id in ipairs(m) do redis.call('zrem', KEYS[1], id) redis.call('zrem', KEYS[2], id) end
return #m
