-- ARGV: ttl, generation read before loading, marker, members... SADD in chunks: Lua's unpack() fails beyond ~8,000
-- values, and a set may hold up to RelationsVerticle.HOT_SET_MAX members.
if redis.call('exists', KEYS[1]) == 1 then return 1 end
if (redis.call('get', KEYS[2]) or '0') ~= ARGV[2] then return 0 end
for i = 3, #ARGV, 1000 do redis.call('sadd', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV))) end
redis.call('expire', KEYS[1], ARGV[1]) return 1
