/**
 * decideSlidingWindow (@storefront/adapter-support) as one Lua script, so a decision is atomic
 * across every instance; the clock is Redis TIME. One hash per caller (field = bucket index, value
 * = "count:latestMs"), expiring when its newest bucket stops counting: idle callers cost nothing.
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
  local count, latest = string.match(raw[i + 1], '^(%d+):(%d+)$')
  count = tonumber(count)
  latest = tonumber(latest)
  if latest == nil or latest + window <= now then
    redis.call('HDEL', key, raw[i])
  else
    buckets[#buckets + 1] = { tonumber(raw[i]), count, latest }
    used = used + count
  end
end
table.sort(buckets, function(a, b) return a[1] < b[1] end)

local allowed = used < limit
if allowed and consume then
  local current = math.floor(now / width)
  local newest = buckets[#buckets]
  if newest ~= nil and newest[1] >= current then
    newest[2] = newest[2] + 1
    if now > newest[3] then newest[3] = now end
  else
    newest = { current, 1, now }
    buckets[#buckets + 1] = newest
  end
  redis.call('HSET', key, newest[1], newest[2] .. ':' .. newest[3])
  redis.call('PEXPIRE', key, newest[3] + window - now)
  used = used + 1
end

local remaining = limit - used
if remaining < 0 then remaining = 0 end
local reset = 0
if #buckets > 0 then
  reset = buckets[#buckets][3] + window - now
  if reset < 0 then reset = 0 end
end
local retry = 0
if remaining == 0 then
  local left = used
  for _, b in ipairs(buckets) do
    left = left - b[2]
    if left < limit then
      retry = b[3] + window - now
      if retry < 0 then retry = 0 end
      break
    end
  end
end
return { allowed and 1 or 0, remaining, reset, retry }
`;
