-- ARGV: prefix, spec JSON {types, where}. Returns {-1} or {1, deleted ids, counters}.
if not present() then return {-1} end
bump()
local deleted = {}
for _, id in ipairs(scan(cjson.decode(ARGV[2]), nil)) do
  if remove(id) then deleted[#deleted + 1] = id end
end
return {1, deleted, redis.call('hgetall', C)}
