-- ARGV: prefix, ids... Returns {-1} or {1, changed ids, counters}.
if not present() then return {-1} end
bump()
local changed = {}
for i = 2, #ARGV do
  if markread(ARGV[i]) then changed[#changed + 1] = ARGV[i] end
end
return {1, changed, redis.call('hgetall', C)}
