local cur = tonumber(redis.call('hget', KEYS[5], ARGV[1]) or '-1')
if tonumber(ARGV[2]) < cur then return 0 end
redis.call('hset', KEYS[5], ARGV[1], ARGV[2])
if ARGV[3] == 'joined' then redis.call('zadd', KEYS[1], ARGV[4], ARGV[1])
else redis.call('zrem', KEYS[1], ARGV[1]) end
if ARGV[3] == 'waitlisted' then redis.call('zadd', KEYS[2], ARGV[4], ARGV[1])
else redis.call('zrem', KEYS[2], ARGV[1]) end
if ARGV[5] == '1' then redis.call('sadd', KEYS[3], ARGV[1]) else redis.call('srem', KEYS[3], ARGV[1]) end
if ARGV[3] == 'removed' then redis.call('sadd', KEYS[4], ARGV[1])
else redis.call('srem', KEYS[4], ARGV[1]) end
for i = 1, 5 do redis.call('pexpireat', KEYS[i], ARGV[6]) end
return 1
