if ARGV[5] == '1' and redis.call('zcount', KEYS[1], ARGV[1], ARGV[1]) == 0 then return 0 end
redis.call('zremrangebyscore', KEYS[1], ARGV[1], ARGV[1])
redis.call('zadd', KEYS[1], ARGV[1], ARGV[2])
redis.call('zremrangebyrank', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('expire', KEYS[1], ARGV[4]) return 1
