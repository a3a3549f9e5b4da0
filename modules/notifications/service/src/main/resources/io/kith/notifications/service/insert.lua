-- ARGV: prefix, cap, id, type, created, dedupe key, field, value, ...
-- Returns {-1} when the user's side is missing (the record holds the notification; a rebuild will load it),
-- {0} when a notification with this dedupe key exists, {1, evicted ids, counters} when stored.
bump()
if not present() then return {-1} end
local key = ARGV[6]
if redis.call('hexists', KEYMAP, key) == 1 then return {0} end
local id, ty = ARGV[3], ARGV[4]
local h = p .. ':n:' .. id
redis.call('hset', h, 'id', id, 'type', ty, 'created', ARGV[5], 'unread', '1', 'key', key)
for i = 7, #ARGV, 2 do redis.call('hset', h, ARGV[i], ARGV[i + 1]) end
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
return {1, evicted, redis.call('hgetall', C)}
