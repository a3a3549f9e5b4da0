-- Rebuilds the user's side from the record. ARGV: prefix, generation read before loading, known types (JSON array),
-- notifications (JSON array of {id, type, created, unread, key, slot?, fields: [field, value, ...]}, newest first).
-- Stores nothing (returns 0) when a write happened since the generation was read; returns 1 when the side exists.
-- Of several records holding one slot (left by a producer that stopped half-way), only the newest is loaded.
if present() then return 1 end
if (redis.call('get', G) or '0') ~= ARGV[2] then return 0 end
-- whatever is left of a partial side (the counters went missing alone) is cleared first
for _, id in ipairs(redis.call('zrange', IDX, 0, -1)) do redis.call('del', p .. ':n:' .. id) end
redis.call('del', IDX, KEYMAP, SLOTS)
for _, t in ipairs(cjson.decode(ARGV[3])) do redis.call('del', p .. ':t:' .. t) end
local stored, unread, by = 0, 0, {}
for _, d in ipairs(cjson.decode(ARGV[4])) do
  local slot = d.slot
  if type(slot) ~= 'string' or slot == '' then slot = nil end
  if not (slot and redis.call('hexists', SLOTS, slot) == 1) then
    local h = p .. ':n:' .. d.id
    redis.call('hset', h, 'id', d.id, 'type', d.type, 'created', d.created, 'unread', d.unread, 'key', d.key)
    if slot then
      redis.call('hset', h, 'slot', slot)
      redis.call('hset', SLOTS, slot, d.id)
    end
    for i = 1, #d.fields, 2 do redis.call('hset', h, d.fields[i], d.fields[i + 1]) end
    redis.call('zadd', IDX, d.id, d.id)
    redis.call('zadd', p .. ':t:' .. d.type, d.id, d.id)
    redis.call('hset', KEYMAP, d.key, d.id)
    stored = stored + 1
    if d.unread == '1' then
      unread = unread + 1
      by[d.type] = (by[d.type] or 0) + 1
    end
  end
end
redis.call('hset', C, 'stored', stored, 'unread', unread)
for t, n in pairs(by) do redis.call('hset', C, 'u:' .. t, n) end
return 1
