-- Removes posts from one timeline. KEYS[1]: the timeline. ARGV: the post ids. Order, marker and expiry are kept.
-- Returns how many entries were removed.
local call = redis.call
local k = KEYS[1]
local drop = {}
for i = 1, #ARGV do drop[ARGV[i]] = true end
local keep = {} local removed = 0
for _, e in ipairs(call('lrange', k, 0, -1)) do
  if drop[e] then removed = removed + 1 else keep[#keep + 1] = e end
end
if removed == 0 then return 0 end
local ttl = call('pttl', k)
call('del', k)
for i = 1, #keep, 1000 do call('rpush', k, unpack(keep, i, math.min(i + 999, #keep))) end
if ttl > 0 then call('pexpire', k, ttl) end
return removed
