redis.call('zadd', KEYS[1], 'LT', ARGV[3], ARGV[1])
redis.call('hset', KEYS[2], ARGV[1], ARGV[2])
return 1
