-- A weighted quota on the fixed window KEYS[1]: counts ARGV[1] (the weight) hits unless that would pass ARGV[2] (the
-- most), so a refused call takes nothing and a smaller one may still fit; the window lasts ARGV[3] ms from its first
-- hit. Returns {taken 1 or 0, hits in the window, ms until it resets (the raw PTTL, negative when refused with no
-- window open)}.
local n = tonumber(redis.call('get', KEYS[1]) or '0')
if n + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, n, redis.call('pttl', KEYS[1])} end
n = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then redis.call('pexpire', KEYS[1], ARGV[3]) ttl = tonumber(ARGV[3]) end
return {1, n, ttl}
