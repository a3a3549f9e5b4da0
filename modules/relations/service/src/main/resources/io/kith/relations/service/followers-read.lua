-- KEYS: the list, then hot sets of its user. ARGV: max score ("(<cursor>" or "+inf"), page size, the list's ttl, the
-- sets' ttl. False when there is no copy; else {the copy's version, the bits of the sets missing, the page packed,
-- the edge id of the last follower when more follow (else false)}. Packed: the followers newest first, separated by
-- commas, each its decimal id followed, when present sets hold it, by one letter: 'a' - 1 plus its bits (bit i-1
-- for KEYS[i+1]). Every present set renews its TTL, as HotSets' questions do. A set no larger than the page is read
-- whole (SMEMBERS into a table); a larger one answers SMISMEMBER in chunks, for unpack() as in HotSets.
local v = redis.call('zscore', KEYS[1], 'v')
if not v then return false end
redis.call('expire', KEYS[1], ARGV[3])
local n = tonumber(ARGV[2])
local page = redis.call('zrevrangebyscore', KEYS[1], ARGV[1], '0', 'LIMIT', 0, n + 1)
local next = false
if #page > n then page[#page] = nil next = redis.call('zscore', KEYS[1], page[#page]) end
local missing = 0 local held = {} local at = nil local bit = 1
if #page > 0 then for i = 2, #KEYS do
if redis.call('expire', KEYS[i], ARGV[4]) == 0 then missing = missing + bit
elseif redis.call('scard', KEYS[i]) <= #page then
for _, m in ipairs(redis.call('smembers', KEYS[i])) do held[m] = (held[m] or 0) + bit end
else at = at or {} for s = 1, #page, 1000 do
local r = redis.call('smismember', KEYS[i], unpack(page, s, math.min(s + 999, #page)))
for j = 1, #r do if r[j] == 1 then at[s + j - 1] = (at[s + j - 1] or 0) + bit end end end end
bit = bit * 2 end end
if at then for i, m in pairs(at) do held[page[i]] = (held[page[i]] or 0) + m end end
local letter = {} for m = 1, 15 do letter[m] = string.char(96 + m) end
for i = 1, #page do local m = held[page[i]] if m then page[i] = page[i] .. letter[m] end end
return {-1 - tonumber(v), missing, table.concat(page, ','), next}
