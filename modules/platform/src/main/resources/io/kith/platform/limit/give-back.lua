-- Takes back one hit of the window KEYS[1]: never below zero, and never creates a key (which would have no expiry).
local n = tonumber(redis.call('get', KEYS[1]) or '0')
if n > 0 then return redis.call('decr', KEYS[1]) end
return 0
