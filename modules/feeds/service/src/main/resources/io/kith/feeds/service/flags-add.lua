-- KEYS: the set, its generation. ARGV: member, score, ttl, cap. Moves the generation (a build in flight stores
-- nothing); adds to a set that exists, cut to the cap (then marked partial: 'p' at the top score 2^53), and renews its
-- expiry (reads do not).
redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], 2 * ARGV[3])
if redis.call('exists', KEYS[1]) == 1 then
  redis.call('zadd', KEYS[1], ARGV[2], ARGV[1]) redis.call('expire', KEYS[1], ARGV[3])
  local extra = redis.call('zcard', KEYS[1]) - 1 - tonumber(ARGV[4])
  if extra > 0 then
    redis.call('zremrangebyrank', KEYS[1], 0, extra - 1)
    redis.call('zrem', KEYS[1], 'c') redis.call('zadd', KEYS[1], '9007199254740992', 'p')
  end
end
return 1
