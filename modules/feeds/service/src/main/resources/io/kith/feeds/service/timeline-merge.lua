-- Merges posts into one timeline if it exists. KEYS[1]: the timeline. ARGV: the cap, then the post ids, in any order.
-- The timeline is rewritten in order (ids decreasing), without duplicates, cut to the cap, its marker 'm' and its
-- expiry kept. Returns how many of the ids were new to it.
local call = redis.call
local k = KEYS[1]
if call('exists', k) == 0 then return 0 end
local cap = tonumber(ARGV[1])
local byNumber = {} local all = {} local fresh = 0
for _, e in ipairs(call('lrange', k, 0, -1)) do
  if e ~= 'm' then
    local v = tonumber(e)
    if not byNumber[v] then byNumber[v] = e all[#all + 1] = v end
  end
end
for i = 2, #ARGV do
  local v = tonumber(ARGV[i])
  if not byNumber[v] then byNumber[v] = ARGV[i] all[#all + 1] = v fresh = fresh + 1 end
end
if fresh == 0 then return 0 end
table.sort(all, function(a, b) return a > b end)
local keep = {}
for i = 1, math.min(#all, cap) do keep[i] = byNumber[all[i]] end
keep[#keep + 1] = 'm'
local ttl = call('pttl', k)
call('del', k)
for i = 1, #keep, 1000 do call('rpush', k, unpack(keep, i, math.min(i + 999, #keep))) end
if ttl > 0 then call('pexpire', k, ttl) end
return fresh
