-- A page of one timeline. KEYS[1]: the timeline. ARGV: max id (exclusive, 0: none), since id (exclusive, 0: none),
-- count, cap, and optionally the timeline's ttl. Returns ids newest first, only among the newest cap entries; a binary
-- search finds where max_id starts. With a ttl, a missing timeline answers nil (not an empty page), and the expiry is
-- renewed only when a day (half the ttl, if shorter) has passed since it was last set: at most one EXPIRE a day.
local call = redis.call
local k = KEYS[1]
if ARGV[5] then
  local ttl = tonumber(ARGV[5])
  local left = call('ttl', k)
  if left == -2 then return false end
  if left >= 0 and left < ttl - math.min(86400, math.floor(ttl / 2)) then call('expire', k, ttl) end
end
local max = tonumber(ARGV[1]) local since = tonumber(ARGV[2])
local count = tonumber(ARGV[3]) local cap = tonumber(ARGV[4]) local start = 0
if max > 0 then
  local lo = 0 local hi = call('llen', k) - 1
  if hi > cap then hi = cap end
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    local e = call('lindex', k, mid)
    if e == 'm' or tonumber(e) < max then hi = mid else lo = mid + 1 end
  end
  start = lo
end
local stop = start + count - 1
if stop > cap - 1 then stop = cap - 1 end
local out = {}
if stop < start then return out end
for _, e in ipairs(call('lrange', k, start, stop)) do
  if e == 'm' then break end
  local v = tonumber(e)
  if since > 0 and v <= since then break end
  if max == 0 or v < max then out[#out + 1] = e end
end
return out
