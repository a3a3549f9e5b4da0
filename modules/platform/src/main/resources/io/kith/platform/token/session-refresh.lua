-- 'prev' holds the hashes of up to PREVIOUS_KEPT earlier secrets, newest first, comma-separated (hex never has commas)
local cur = redis.call('hget', KEYS[1], 'hash')
if not cur then return 0 end
local prev = redis.call('hget', KEYS[1], 'prev') or ''
if cur == ARGV[1] then
  local kept = ARGV[1]
  local n = 1
  for h in string.gmatch(prev, '[^,]+') do
    if n >= tonumber(ARGV[6]) then break end
    kept = kept .. ',' .. h n = n + 1
  end
  redis.call('hset', KEYS[1], 'hash', ARGV[2], 'prev', kept, 'last_used', ARGV[3])
  redis.call('pexpire', KEYS[1], ARGV[4])
  redis.call('pexpire', KEYS[2], ARGV[4])
  return 1
end
for h in string.gmatch(prev, '[^,]+') do
  if h == ARGV[1] then
    redis.call('del', KEYS[1]) redis.call('zrem', KEYS[2], ARGV[5]) return -1
  end
end
return 0
