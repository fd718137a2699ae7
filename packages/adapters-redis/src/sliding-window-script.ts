/**
 * The domain's bucketed sliding window (`decideSlidingWindow`) as one Lua script, so that a decision
 * is atomic across every instance sharing the Redis. The clock is Redis `TIME`, never the app's.
 * State: one hash per caller, field = bucket index, value = count; the key expires when its newest
 * bucket stops counting, so idle callers cost nothing.
 *
 * KEYS[1] caller key; ARGV: limit, window ms, bucket width ms, consume (1/0).
 * Returns { allowed (1/0), remaining, reset ms, retry-after ms }.
 */
export const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local width = tonumber(ARGV[3])
local consume = ARGV[4] == '1'
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local raw = redis.call('HGETALL', key)
local buckets = {}
local used = 0
for i = 1, #raw, 2 do
  local bucket = tonumber(raw[i])
  if (bucket + 1) * width + window <= now then
    redis.call('HDEL', key, raw[i])
  else
    local count = tonumber(raw[i + 1])
    buckets[#buckets + 1] = { bucket, count }
    used = used + count
  end
end

local allowed = used < limit
if allowed and consume then
  local current = math.floor(now / width)
  redis.call('HINCRBY', key, current, 1)
  used = used + 1
  local found = false
  for _, b in ipairs(buckets) do
    if b[1] == current then b[2] = b[2] + 1; found = true end
  end
  if not found then buckets[#buckets + 1] = { current, 1 } end
  redis.call('PEXPIRE', key, (current + 1) * width + window - now)
end
table.sort(buckets, function(a, b) return a[1] < b[1] end)

local remaining = limit - used
if remaining < 0 then remaining = 0 end
local reset = 0
if #buckets > 0 then
  reset = (buckets[#buckets][1] + 1) * width + window - now
  if reset < 0 then reset = 0 end
end
local retry = 0
if remaining == 0 then
  local left = used
  for _, b in ipairs(buckets) do
    left = left - b[2]
    if left < limit then
      retry = (b[1] + 1) * width + window - now
      if retry < 0 then retry = 0 end
      break
    end
  end
end
return { allowed and 1 or 0, remaining, reset, retry }
`;
