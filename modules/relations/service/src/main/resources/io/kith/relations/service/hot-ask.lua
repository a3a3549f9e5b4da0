-- KEYS: sets of one user; ARGV: ttl, ids... Answers {missing, mask of id 1, mask of id 2, ...}: bit i-1 of missing
-- when KEYS[i] does not exist, bit i-1 of an id's mask when KEYS[i] holds it. A present set's TTL is renewed once
-- half of it is gone (not by every call: an EXPIRE is a write that every replica and the AOF would take per read).
-- SMISMEMBER in chunks for unpack(), as FILL.
local out = {0} for j = 2, #ARGV do out[j] = 0 end local bit = 1
for i = 1, #KEYS do
local left = redis.call('ttl', KEYS[i])
if left ~= -2 then
if left >= 0 and left < ARGV[1] / 2 then redis.call('expire', KEYS[i], ARGV[1]) end
for s = 2, #ARGV, 1000 do
local m = redis.call('smismember', KEYS[i], unpack(ARGV, s, math.min(s + 999, #ARGV)))
for j = 1, #m do if m[j] == 1 then out[s + j - 1] = out[s + j - 1] + bit end end end
else out[1] = out[1] + bit end
bit = bit * 2 end return out
