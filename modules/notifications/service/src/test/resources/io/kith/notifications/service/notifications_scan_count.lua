-- The classic unread count the notifications benchmark compares the product with: walk the user's whole list and
-- count the unread hashes, per type. KEYS[1]: the user's index ntf:{u:<id>}:idx; ARGV[1]: the user's key prefix
-- ntf:{u:<id>} (the hashes ntf:{u:<id>}:n:<nid> share its hash tag). Returns {total, type, count, type, count...}.
local ids = redis.call('zrange', KEYS[1], 0, -1)
local total, by = 0, {}
for _, id in ipairs(ids) do
  local f = redis.call('hmget', ARGV[1] .. ':n:' .. id, 'unread', 'type')
  if f[1] == '1' then
    total = total + 1
    by[f[2]] = (by[f[2]] or 0) + 1
  end
end
local out = {total}
for t, n in pairs(by) do
  out[#out + 1] = t
  out[#out + 1] = n
end
return out
