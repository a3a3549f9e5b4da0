-- ARGV: prefix, cap, id, type, created, dedupe key, slot ('' for none), field, value, ...
-- Returns {-1} when the user's side is missing (the record holds the notification; a rebuild will load it),
-- {0} when a notification with this dedupe key exists, {2} when a newer notification holds the slot (this one is
-- out of date and is not stored), {1, evicted ids, counters, replaced ids} when stored. A notification with a slot
-- replaces the older one holding it (at most one per slot and user).
bump()
if not present() then return {-1} end
local key = ARGV[6]
if redis.call('hexists', KEYMAP, key) == 1 then return {0} end
local id, ty, slot = ARGV[3], ARGV[4], ARGV[7]
local replaced = {}
if slot ~= '' then
  local holder = redis.call('hget', SLOTS, slot)
  if holder then
    if tonumber(holder) > tonumber(id) then return {2} end
    if remove(holder) then replaced[1] = holder end
  end
end
local h = p .. ':n:' .. id
redis.call('hset', h, 'id', id, 'type', ty, 'created', ARGV[5], 'unread', '1', 'key', key)
if slot ~= '' then
  redis.call('hset', h, 'slot', slot)
  redis.call('hset', SLOTS, slot, id)
end
for i = 8, #ARGV, 2 do redis.call('hset', h, ARGV[i], ARGV[i + 1]) end
redis.call('zadd', IDX, id, id)
redis.call('zadd', p .. ':t:' .. ty, id, id)
redis.call('hset', KEYMAP, key, id)
redis.call('hincrby', C, 'stored', 1)
redis.call('hincrby', C, 'unread', 1)
redis.call('hincrby', C, 'u:' .. ty, 1)
local evicted = {}
local over = redis.call('zcard', IDX) - tonumber(ARGV[2])
if over > 0 then
  for _, old in ipairs(redis.call('zrange', IDX, 0, over - 1)) do
    if remove(old) then evicted[#evicted + 1] = old end
  end
end
return {1, evicted, redis.call('hgetall', C), replaced}
