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
-- slot -> id of the one notification holding it (a notification that newer ones replace, e.g. per conversation)
local SLOTS = p .. ':s'

local function present()
  return redis.call('exists', C) == 1
end

local function bump()
  redis.call('incr', G)
end

-- Removes one notification with its index entries, dedupe key and slot, correcting the counters. True when it
-- existed.
local function remove(id)
  local h = p .. ':n:' .. id
  local f = redis.call('hmget', h, 'type', 'unread', 'key', 'slot')
  if not f[1] then return false end
  redis.call('del', h)
  redis.call('zrem', IDX, id)
  redis.call('zrem', p .. ':t:' .. f[1], id)
  if f[3] and redis.call('hget', KEYMAP, f[3]) == id then redis.call('hdel', KEYMAP, f[3]) end
  if f[4] and redis.call('hget', SLOTS, f[4]) == id then redis.call('hdel', SLOTS, f[4]) end
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
-- With types, only those types' indexes are read, merged newest first (each index is already sorted: no sort of the
-- whole set); every index is read in pages, so a list stops reading once it has want matches. Conditions are checked
-- on each candidate's hash.
-- Pages start at about what the caller wants (no more than needed for a short list) and double up to MAX_PAGE.
local MAX_PAGE = 512

local function cursor(key, max, min, first)
  return {key = key, max = max, min = min, buf = {}, pos = 1, done = false, n = first}
end

-- The cursor's next (id, score) without taking it; nil when the index is used up.
local function peek(c)
  if c.pos > #c.buf then
    if c.done then return nil end
    local r = redis.call('zrevrangebyscore', c.key, c.max, c.min, 'WITHSCORES', 'LIMIT', 0, c.n)
    c.buf = {}
    c.pos = 1
    for k = 1, #r, 2 do c.buf[#c.buf + 1] = {r[k], tonumber(r[k + 1]), r[k + 1]} end
    if #c.buf < c.n then c.done = true end
    c.n = math.min(c.n * 2, MAX_PAGE)
    if #c.buf == 0 then return nil end
    -- the next page starts below the last score read (ids are unique scores)
    c.max = '(' .. c.buf[#c.buf][3]
  end
  return c.buf[c.pos]
end

local function scan(spec, want)
  local max = spec.max or '+inf'
  local min = spec.min or '-inf'
  local conds = spec.where or {}
  local fields = {}
  for k, c in ipairs(conds) do fields[k] = c[1] end
  local cursors = {}
  local types = spec.types or {}
  local first = want and math.max(16, math.min(want, MAX_PAGE)) or MAX_PAGE
  if #types == 0 then
    cursors[1] = cursor(IDX, max, min, first)
  else
    for _, t in ipairs(types) do cursors[#cursors + 1] = cursor(p .. ':t:' .. t, max, min, first) end
  end
  local out = {}
  while true do
    local best, bestScore = nil, nil
    for k, c in ipairs(cursors) do
      local e = peek(c)
      if e and (bestScore == nil or e[2] > bestScore) then
        best, bestScore = k, e[2]
      end
    end
    if not best then break end
    local c = cursors[best]
    local id = c.buf[c.pos][1]
    c.pos = c.pos + 1
    local ok = true
    if #fields > 0 then
      local v = redis.call('hmget', p .. ':n:' .. id, unpack(fields))
      for k, cond in ipairs(conds) do
        if v[k] ~= cond[2] then ok = false break end
      end
    end
    if ok then
      out[#out + 1] = id
      if want and #out >= want then break end
    end
  end
  return out
end
