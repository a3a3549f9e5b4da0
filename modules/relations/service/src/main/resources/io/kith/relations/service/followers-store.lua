-- KEYS: the list. ARGV: version, ttl, then edge id, follower pairs. A copy of a newer version is kept.
local v = redis.call('zscore', KEYS[1], 'v')
if v and -1 - tonumber(v) > tonumber(ARGV[1]) then return 0 end
redis.call('del', KEYS[1])
redis.call('zadd', KEYS[1], -1 - tonumber(ARGV[1]), 'v')
for i = 3, #ARGV, 1000 do redis.call('zadd', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV))) end
redis.call('expire', KEYS[1], ARGV[2]) return 1
