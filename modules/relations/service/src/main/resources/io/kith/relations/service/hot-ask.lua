-- KEYS: sets of one user; ARGV: ttl, ids... Answers {missing, mask of id 1, mask of id 2, ...}: bit i-1 of missing
-- when KEYS[i] does not exist, bit i-1 of an id's mask when KEYS[i] holds it. A present set's TTL is renewed.
-- SMISMEMBER in chunks for unpack(), as FILL.
local out = {0} for j = 2, #ARGV do out[j] = 0 end local bit = 1
for i = 1, #KEYS do
if redis.call('expire', KEYS[i], ARGV[1]) == 1 then
for s = 2, #ARGV, 1000 do
local m = redis.call('smismember', KEYS[i], unpack(ARGV, s, math.min(s + 999, #ARGV)))
for j = 1, #m do if m[j] == 1 then out[s + j - 1] = out[s + j - 1] + bit end end end
else out[1] = out[1] + bit end
bit = bit * 2 end return out
