-- ARGV: prefix. Returns {-1} or {1, changed ids, counters}.
if not present() then return {-1} end
bump()
local changed = {}
if tonumber(redis.call('hget', C, 'unread') or '0') > 0 then
  for _, id in ipairs(redis.call('zrange', IDX, 0, -1)) do
    if markread(id) then changed[#changed + 1] = id end
  end
end
return {1, changed, redis.call('hgetall', C)}
