-- ARGV: prefix, spec JSON {types, where}. Returns {-1} or {1, changed ids, counters}.
if not present() then return {-1} end
bump()
local changed = {}
for _, id in ipairs(scan(cjson.decode(ARGV[2]), nil)) do
  if markread(id) then changed[#changed + 1] = id end
end
return {1, changed, redis.call('hgetall', C)}
