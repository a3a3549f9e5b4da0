-- Run 3 of the feeds fan-out breakdown (FanoutBreakdown): the worker's insert into sorted-set timelines scored by id
-- instead of lists. KEYS: the timelines (a missing one is left alone). ARGV[1]: the post id; ARGV[2]: the cap.
-- Answers how many timelines gained the post.
local id = ARGV[1] local keep = tonumber(ARGV[2]) + 1 local added = 0
for i = 1, #KEYS do
  local n = redis.call('zcard', KEYS[i])
  if n > 0 then
    local a = redis.call('zadd', KEYS[i], id, id) added = added + a
    if n + a > keep then redis.call('zremrangebyrank', KEYS[i], 0, -keep - 1) end
  end
end
return added
