-- Adds one post to many list timelines (the fan-out's insert; the bench's feeds-fanout runs this same file).
-- KEYS: the timelines. ARGV: the post id, the cap, the slack. A timeline exists when it has a head (at least its
-- marker 'm'); a post newer than the head is pushed there, an older one is placed in order, one already there is
-- skipped. A list longer than the cap plus the slack is cut back to the cap (and its marker). Returns how many
-- timelines gained the post. List indexes are passed as strings: a Lua number given to redis.call is formatted on
-- every call, which cost a fifth of the script's time.

-- Inserts an id older than a timeline's head in place: the list's new length, or 0 when the id is there already or
-- would fall beyond the cap. A post arriving out of order (posts published at the same moment reach the worker in
-- any order) is nearly always among the newest: it looks at the second entry first, then reads on from the head in
-- growing chunks (8, 32, 128, ... entries).
local function place(k, id, v, cap)
  local second = redis.call('lindex', k, '1')
  if not second or cap < 2 then return 0 end
  if second == 'm' then return redis.call('linsert', k, 'BEFORE', 'm', id) end
  local s = tonumber(second)
  if s == v then return 0 end
  if s < v then return redis.call('linsert', k, 'BEFORE', second, id) end
  local from = 2 local size = 8
  while from < cap do
    local to = math.min(from + size, cap) - 1
    local items = redis.call('lrange', k, from, to)
    for j = 1, #items do
      local e = items[j]
      if e == 'm' then return redis.call('linsert', k, 'BEFORE', 'm', id) end
      local x = tonumber(e)
      if x == v then return 0 end
      if x < v then return redis.call('linsert', k, 'BEFORE', e, id) end
    end
    if #items <= to - from then return 0 end
    from = to + 1 size = size * 4
  end
  return 0
end

local call = redis.call
local id = ARGV[1]
local v = tonumber(id)
local cap = tonumber(ARGV[2])
local most = cap + tonumber(ARGV[3]) + 1
local added = 0
for i = 1, #KEYS do
  local k = KEYS[i]
  local head = call('lindex', k, '0')
  if head then
    local n = 0
    if head == 'm' or tonumber(head) < v then n = call('lpush', k, id)
    elseif head ~= id then n = place(k, id, v, cap) end
    if n > 0 then
      added = added + 1
      if n > most then call('ltrim', k, 0, cap - 1) call('rpush', k, 'm') end
    end
  end
end
return added
