/**
 * The order event log's Lua scripts: each call of the log is one script, so that ids, per-order
 * records, the window and what readers see always agree, across every instance sharing the Redis.
 *
 * Keys (under the log's prefix): `head` (the last id given: a decimal integer), `stream` (a Redis
 * Stream whose entry ids are `<id>-0`, so the event with id s is addressable as `s-0`; fields `t`
 * (append time, ms) then `e` (the event as JSON)), and `order:<orderId>` (the newest version
 * appended for the order, expiring 24 h after its last write).
 */

/**
 * The head: the `head` key; when the key is missing (evicted, deleted), the stream's last id, or 0.
 * Every script that moves the head sets the key in the same step as its XADDs, so a key that is
 * present is never below the stream: the stream is read only when the key was lost.
 */
const PRELUDE = `
local function fmt(n) return string.format('%d', n) end
local function seqOf(id) return tonumber(string.match(id, '^(%d+)')) end
local function currentHead(headKey, stream)
  local head = redis.call('GET', headKey)
  if head then return tonumber(head) end
  local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)[1]
  if last == nil then return 0 end
  return seqOf(last[1])
end
local function firstEntry(stream) return redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1] end
local function firstHeld(stream, head)
  local first = firstEntry(stream)
  if first == nil then return head + 1 end
  return seqOf(first[1])
end
`;

/**
 * Appends events, skipping each whose version is not above its order's record, after raising the
 * head to the caller's floor (the highest id it has seen: a Redis restarted without persistence
 * must not give ids again that clients already hold). Then trims the window: only when more than
 * `keepAtLeast` are held, and only entries not among the newest `keepAtLeast` that were appended
 * `keepForMs` ago or earlier (a binary search over the dense ids, append times being in id order).
 *
 * KEYS[1] head, KEYS[2] stream, KEYS[3..] the order record key of each event.
 * ARGV: floor, now ms ('' = Redis TIME), keepAtLeast, keepForMs, record TTL ms, then per event: version, JSON.
 * Returns { head as Redis held it, head after the floor (ids given start after it), head after }.
 * With no event it only raises the head to the floor (the reader does this when it reconnects).
 */
export const APPEND_EVENTS_LUA = `${PRELUDE}
local headKey, stream = KEYS[1], KEYS[2]
local held = currentHead(headKey, stream)
local head = held
local floor = tonumber(ARGV[1])
if head < floor then head = floor end
local base = head
local now = tonumber(ARGV[2])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local keep, keepFor, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])

for i = 3, #KEYS do
  local j = i - 2
  local version = tonumber(ARGV[4 + 2 * j])
  local record = tonumber(redis.call('GET', KEYS[i]) or '0')
  if version > record then
    head = head + 1
    redis.call('XADD', stream, fmt(head) .. '-0', 't', fmt(now), 'e', ARGV[5 + 2 * j])
    redis.call('SET', KEYS[i], fmt(version), 'PX', ttl)
  end
end
if head ~= held then redis.call('SET', headKey, fmt(head)) end

if redis.call('XLEN', stream) > keep then
  local function appendedAt(s)
    local entry = redis.call('XRANGE', stream, fmt(s) .. '-0', fmt(s) .. '-0')[1]
    if entry == nil then return nil end
    return tonumber(entry[2][2])
  end
  local cutoff = now - keepFor
  -- Held: more than keep >= 1 entries. The first one's id and time are read in one go.
  local first = firstEntry(stream)
  local lo, hi = seqOf(first[1]), head - keep
  if hi >= lo and tonumber(first[2][2]) <= cutoff then
    -- Invariant: the entry lo may go. Find the newest entry up to hi that may.
    while lo < hi do
      local mid = math.floor((lo + hi + 1) / 2)
      local at = appendedAt(mid)
      if at ~= nil and at <= cutoff then lo = mid else hi = mid - 1 end
    end
    redis.call('XTRIM', stream, 'MINID', fmt(lo + 1) .. '-0')
  end
end
return { held, base, head }
`;

/**
 * The events after an id, with the head and window they were read against.
 * KEYS[1] head, KEYS[2] stream. ARGV: after, limit.
 * Returns { 0, head } when `after` is beyond the head or older than the window, else { 1, head, entries }.
 */
export const READ_EVENTS_LUA = `${PRELUDE}
local head = currentHead(KEYS[1], KEYS[2])
local after = tonumber(ARGV[1])
if after > head or after < firstHeld(KEYS[2], head) - 1 then return { 0, head } end
return { 1, head, redis.call('XRANGE', KEYS[2], fmt(after + 1) .. '-0', '+', 'COUNT', tonumber(ARGV[2])) }
`;

/**
 * The head and, with a third key, the order's record, read together.
 * KEYS[1] head, KEYS[2] stream, KEYS[3] (optional) order record. Returns { head, version or 0 }.
 */
export const EVENTS_POSITION_LUA = `${PRELUDE}
local version = 0
if KEYS[3] ~= nil then version = tonumber(redis.call('GET', KEYS[3]) or '0') end
return { currentHead(KEYS[1], KEYS[2]), version }
`;

/**
 * An erasure: the stream again with some entries' events replaced, ids and times kept. A stream
 * entry cannot be changed and an id cannot be added below the last, so the script copies the stream
 * to KEYS[2] and renames the copy over it, in one step that readers and appends cannot interleave.
 * KEYS[1] stream, KEYS[2] a scratch key. ARGV: entry id, new event JSON, … Returns entries replaced.
 */
export const REWRITE_EVENTS_LUA = `
local stream, copy = KEYS[1], KEYS[2]
local replace = {}
for i = 1, #ARGV, 2 do replace[ARGV[i]] = ARGV[i + 1] end
redis.call('DEL', copy)
local from, replaced, any = '-', 0, false
while true do
  local batch = redis.call('XRANGE', stream, from, '+', 'COUNT', 1000)
  if #batch == 0 then break end
  for _, entry in ipairs(batch) do
    local id, fields = entry[1], entry[2]
    local event = replace[id]
    if event then
      for j = 1, #fields, 2 do if fields[j] == 'e' then fields[j + 1] = event end end
      replaced = replaced + 1
    end
    redis.call('XADD', copy, id, unpack(fields))
    from = '(' .. id
    any = true
  end
end
if replaced == 0 or not any then
  redis.call('DEL', copy)
  return 0
end
local info = redis.call('XINFO', 'STREAM', stream)
for i = 1, #info, 2 do
  if info[i] == 'last-generated-id' then redis.call('XSETID', copy, info[i + 1]) end
end
redis.call('RENAME', copy, stream)
return replaced
`;
