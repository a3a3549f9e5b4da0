-- Counts ARGV[1] (the weight) hits in the window KEYS[1] unless that would pass ARGV[2] (the most); the window
-- lasts ARGV[3] ms from its first hit. Returns {count, ttl ms}; count -1 when refused (nothing is counted then).
local cur = tonumber(redis.call('get', KEYS[1]) or '0')
if cur + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {-1, redis.call('pttl', KEYS[1])} end
local n = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then redis.call('pexpire', KEYS[1], ARGV[3]) ttl = tonumber(ARGV[3]) end
return {n, ttl}
