-- The classic filtered list the notifications benchmark compares the product with: walk the user's whole list newest
-- first, keep the notifications of the given types whose field equals the value, stop at the limit and return their
-- hashes. KEYS[1]: the user's index ntf:{u:<id>}:idx; ARGV: prefix ntf:{u:<id>}, limit, field, value, type, type...
-- Returns {{hash fields and values...}...}, newest first (the shape of the product's list script's items).
local want = tonumber(ARGV[2])
local types = {}
for i = 5, #ARGV do types[ARGV[i]] = true end
local out = {}
for _, id in ipairs(redis.call('zrevrange', KEYS[1], 0, -1)) do
  local h = ARGV[1] .. ':n:' .. id
  local f = redis.call('hmget', h, 'type', ARGV[3])
  if types[f[1]] and f[2] == ARGV[4] then
    out[#out + 1] = redis.call('hgetall', h)
    if #out >= want then break end
  end
end
return out
