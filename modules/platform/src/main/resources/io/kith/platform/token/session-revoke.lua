-- the id leaves the index and its hash goes in one step, and only for an id the index held: nothing else under the
-- user's prefix can be deleted through revoke
if redis.call('zrem', KEYS[1], ARGV[1]) == 0 then return 0 end
return redis.call('del', KEYS[2])
