-- Shared by every notifications script. KEYS[1]: the user's counters hash (also the marker: the user's Redis side
-- exists, complete, exactly when it does); KEYS[2]: the user's write generation. ARGV[1]: the user's key prefix
-- "ntf:{u:<id>}"; every other key of the user is derived from it (same hash tag, so the same Redis Cluster slot).
-- Ids travel as decimal strings and are never turned into Lua numbers and back (doubles would print them in
-- exponent form); they are compared with tonumber only, which is exact below 2^53.
local p = ARGV[1]
local C = KEYS[1]
local G = KEYS[2]
local IDX = p .. ':idx'
local KEYMAP = p .. ':k'

local function present()
  return redis.call('exists', C) == 1
end

local function bump()
  redis.call('incr', G)
end

-- Removes one notification with its index entries and dedupe key, correcting the counters. True when it existed.
local function remove(id)
  local h = p .. ':n:' .. id
  local f = redis.call('hmget', h, 'type', 'unread', 'key')
  if not f[1] then return false end
  redis.call('del', h)
  redis.call('zrem', IDX, id)
  redis.call('zrem', p .. ':t:' .. f[1], id)
  if f[3] and redis.call('hget', KEYMAP, f[3]) == id then redis.call('hdel', KEYMAP, f[3]) end
  redis.call('hincrby', C, 'stored', -1)
  if f[2] == '1' then
    redis.call('hincrby', C, 'unread', -1)
    redis.call('hincrby', C, 'u:' .. f[1], -1)
  end
  return true
end

-- Marks one notification read, correcting the counters. True when it was unread.
local function markread(id)
  local h = p .. ':n:' .. id
  local f = redis.call('hmget', h, 'type', 'unread')
  if f[2] ~= '1' then return false end
  redis.call('hset', h, 'unread', '0')
  redis.call('hincrby', C, 'unread', -1)
  redis.call('hincrby', C, 'u:' .. f[1], -1)
  return true
end

-- Ids matching spec {types, where: [[field, value]...], max, min} newest first; at most want of them (nil: all).
-- With types, only those types' indexes are read; conditions are checked on each candidate's hash.
local function scan(spec, want)
  local max = spec.max or '+inf'
  local min = spec.min or '-inf'
  local conds = spec.where or {}
  local fields = {}
  for i, c in ipairs(conds) do fields[i] = c[1] end
  local limit = want and #fields == 0
  local function range(key)
    if limit then return redis.call('zrevrangebyscore', key, max, min, 'LIMIT', 0, want) end
    return redis.call('zrevrangebyscore', key, max, min)
  end
  local ids
  local types = spec.types or {}
  if #types == 0 then
    ids = range(IDX)
  else
    ids = {}
    for _, t in ipairs(types) do
      for _, id in ipairs(range(p .. ':t:' .. t)) do ids[#ids + 1] = id end
    end
    if #types > 1 then table.sort(ids, function(a, b) return tonumber(a) > tonumber(b) end) end
  end
  if #fields == 0 then
    if want and #ids > want then
      local cut = {}
      for i = 1, want do cut[i] = ids[i] end
      return cut
    end
    return ids
  end
  local out = {}
  for _, id in ipairs(ids) do
    local v = redis.call('hmget', p .. ':n:' .. id, unpack(fields))
    local ok = true
    for i, c in ipairs(conds) do
      if v[i] ~= c[2] then ok = false break end
    end
    if ok then
      out[#out + 1] = id
      if want and #out >= want then break end
    end
  end
  return out
end
