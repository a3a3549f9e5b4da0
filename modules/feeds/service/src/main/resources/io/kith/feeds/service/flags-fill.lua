-- KEYS: the set, its generation. ARGV: generation read before loading, marker ('c' complete, 'p' partial, at the top
-- score 2^53), ttl, then score/member pairs. ZADD in chunks: Lua's unpack() fails beyond ~8,000 values.
if redis.call('exists', KEYS[1]) == 1 then return 1 end
if (redis.call('get', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
redis.call('zadd', KEYS[1], '9007199254740992', ARGV[2])
for i = 4, #ARGV, 1000 do redis.call('zadd', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV))) end
redis.call('expire', KEYS[1], ARGV[3])
return 1
