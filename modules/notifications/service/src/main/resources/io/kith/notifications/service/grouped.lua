-- ARGV: prefix, spec JSON {types, before, limit}. Folds every matching notification by type and object (reply_to,
-- else post, activity, group, conversation; none for follower-like types); groups are ordered by their newest notification and
-- only groups whose newest is older than spec.before are returned. Returns {-1} or {1, {{latest hash}, count,
-- unread, actor count, {up to 3 actors, newest first}}...}.
if not present() then return {-1} end
local spec = cjson.decode(ARGV[2])
local before = spec.before and tonumber(spec.before)
local groups, order = {}, {}
for _, id in ipairs(scan(spec, nil)) do
  local f = redis.call('hmget', p .. ':n:' .. id, 'type', 'from_user', 'unread', 'reply_to', 'post', 'activity',
    'group', 'conversation')
  local k = f[1] .. '|' .. (f[4] or f[5] or f[6] or f[7] or f[8] or '')
  local g = groups[k]
  if not g then
    g = {id = id, count = 0, unread = 0, seen = {}, distinct = 0, actors = {}}
    groups[k] = g
    order[#order + 1] = g
  end
  g.count = g.count + 1
  if f[3] == '1' then g.unread = g.unread + 1 end
  if f[2] and not g.seen[f[2]] then
    g.seen[f[2]] = true
    g.distinct = g.distinct + 1
    if #g.actors < 3 then g.actors[#g.actors + 1] = f[2] end
  end
end
local out = {}
for _, g in ipairs(order) do
  if not before or tonumber(g.id) < before then
    out[#out + 1] = {redis.call('hgetall', p .. ':n:' .. g.id), g.count, g.unread, g.distinct, g.actors}
    if #out >= spec.limit then break end
  end
end
return {1, out}
