-- KEYS: the cached copy, its version. ARGV: the version read before loading, the document, the ttl. A copy loaded
-- before a change (the version moved meanwhile) is not stored.
if (redis.call('get', KEYS[2]) or '0') == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[2], 'EX', ARGV[3])
end
return 1
