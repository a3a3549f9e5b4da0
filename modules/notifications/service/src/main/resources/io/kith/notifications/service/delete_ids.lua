-- ARGV: prefix, ids... Returns {-1} (after bumping the generation, so a rebuild in flight starts over) or
-- {1, deleted ids, counters}.
bump()
if not present() then return {-1} end
local deleted = {}
for i = 2, #ARGV do
  if remove(ARGV[i]) then deleted[#deleted + 1] = ARGV[i] end
end
return {1, deleted, redis.call('hgetall', C)}
