local removed = redis.call('zrem', KEYS[1], ARGV[2])
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
return {removed, redis.call('zcard', KEYS[1])}
