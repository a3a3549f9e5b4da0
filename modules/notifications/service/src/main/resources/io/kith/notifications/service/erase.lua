-- Deletes the user's whole side (an erased account): every notification hash, the indexes, the dedupe and slot maps,
-- the counters and the generation. ARGV[2]: the known types (JSON array). Returns how many notifications it held.
local ids = redis.call('zrange', IDX, 0, -1)
for _, id in ipairs(ids) do redis.call('del', p .. ':n:' .. id) end
redis.call('del', IDX, KEYMAP, SLOTS, C, G)
for _, t in ipairs(cjson.decode(ARGV[2])) do redis.call('del', p .. ':t:' .. t) end
return #ids
