-- KEYS[1]: the cached copy, the account document as JSON (its version in field v). ARGV: the document, its version,
-- the ttl. A copy is only replaced by one of a higher version (the cached document's own v; none counts as 0).
local cur = redis.call('get', KEYS[1])
if cur and tonumber(cjson.decode(cur)['v'] or 0) >= tonumber(ARGV[2]) then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1
