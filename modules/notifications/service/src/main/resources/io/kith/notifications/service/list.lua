-- ARGV: prefix, spec JSON {types, where, max, min, offset, limit}. Returns {-1} or {1, {hash fields...}...}.
if not present() then return {-1} end
local spec = cjson.decode(ARGV[2])
local ids = scan(spec, spec.offset + spec.limit)
local items = {}
for i = spec.offset + 1, #ids do
  items[#items + 1] = redis.call('hgetall', p .. ':n:' .. ids[i])
end
return {1, items}
