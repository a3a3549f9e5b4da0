-- Creates a timeline (its marker 'm') unless it exists, and sets its expiry. KEYS[1]: the timeline. ARGV[1]: seconds.
if redis.call('exists', KEYS[1]) == 0 then redis.call('rpush', KEYS[1], 'm') end
return redis.call('expire', KEYS[1], ARGV[1])
