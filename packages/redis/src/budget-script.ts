/**
 * The paced budget of `BudgetStore.reserve` as one Lua script, so that a reservation over several
 * keys is atomic across every process using the Redis. Mirrors core's `InMemoryBudgetStore`: per key
 * the arrivals (newest last, the latest `max(limit)` kept, enough for every window), a pause, the
 * paced schedule (earliest arrival of a paced rank's next call; bursting ranks push it back), and
 * the earliest departure at which every key allows one more arrival of the request's rank.
 *
 * KEYS: for each budget key, its arrivals list, its pause key, then its paced-schedule key.
 * ARGV: notBefore, arrivalDelayMs, reserve (1) or only look (0), burst (1: the rank may run ahead of
 * the paced schedule) or not (0), the share of the fastest window's spacing a burst keeps
 * (`BURST_SPACING_SHARE`), the arrival a re-booking replaces (`SlotRequest.replacesArrival`; empty
 * for none: uncounted under every key before the slot is picked), then for each key: its spacing (ms), its window count n, and n
 * triples of limit, the limit for the request's rank (`rankLimit`) and widened span (ms).
 * Returns the departure (epoch ms) as a string, so that fractions survive.
 */
export const RESERVE_SCRIPT = `
local notBefore = tonumber(ARGV[1])
local delay = tonumber(ARGV[2])
local reserve = ARGV[3] == '1'
local burst = ARGV[4] == '1'
local burstShare = tonumber(ARGV[5])
local count = #KEYS / 3
local keys = {}
local pos = 7
if reserve and ARGV[6] ~= '' then
  local replaced = string.format('%.17g', tonumber(ARGV[6]))
  for i = 1, count do redis.call('LREM', KEYS[3 * i - 2], -1, replaced) end
end
local departure = notBefore
for i = 1, count do
  local key = { list = KEYS[3 * i - 2], paced = KEYS[3 * i], spacing = tonumber(ARGV[pos]), windows = {}, maxLimit = 0, horizon = 0 }
  local n = tonumber(ARGV[pos + 1])
  pos = pos + 2
  local length = redis.call('LLEN', key.list)
  for w = 1, n do
    local window = { limit = tonumber(ARGV[pos]), rankLimit = tonumber(ARGV[pos + 1]), span = tonumber(ARGV[pos + 2]) }
    pos = pos + 3
    if window.limit > key.maxLimit then key.maxLimit = window.limit end
    if window.span > key.horizon then key.horizon = window.span end
    if length >= window.rankLimit then window.nth = tonumber(redis.call('LINDEX', key.list, -window.rankLimit)) end
    key.windows[w] = window
  end
  local last = redis.call('LINDEX', key.list, -1)
  if last then key.last = tonumber(last) end
  local pacedAt = redis.call('GET', key.paced)
  if pacedAt then key.pacedAt = tonumber(pacedAt) end
  local paused = redis.call('GET', KEYS[3 * i - 1])
  if paused and tonumber(paused) > departure then departure = tonumber(paused) end
  keys[i] = key
end
local function earliest(key, arrival)
  local at = arrival
  if key.last then
    local burstSpacing = math.huge
    for _, window in ipairs(key.windows) do burstSpacing = math.min(burstSpacing, (window.span + delay) / window.limit) end
    at = math.max(at, key.last + burstSpacing * burstShare)
    if not burst or #key.windows < 2 then
      at = math.max(at, key.last + key.spacing)
      for _, window in ipairs(key.windows) do at = math.max(at, key.last + (window.span + delay) / window.limit) end
    end
    for _, window in ipairs(key.windows) do
      if window.nth then at = math.max(at, window.nth + window.span + delay) end
    end
  end
  if (not burst or #key.windows < 2) and key.pacedAt then at = math.max(at, key.pacedAt) end
  return at
end
for round = 1, 16 do
  local candidate = departure
  for i = 1, count do candidate = math.max(candidate, earliest(keys[i], departure + delay) - delay) end
  if candidate == departure then break end
  departure = candidate
end
if reserve then
  local arrival = departure + delay
  local stored = string.format('%.17g', arrival)
  for i = 1, count do
    local key = keys[i]
    local ttl = math.ceil(2 * key.horizon + delay)
    redis.call('RPUSH', key.list, stored)
    redis.call('LTRIM', key.list, -key.maxLimit, -1)
    redis.call('PEXPIRE', key.list, ttl)
    local pacedAt = math.max(key.pacedAt or arrival, arrival) + key.spacing
    redis.call('SET', key.paced, string.format('%.17g', pacedAt), 'PX', math.ceil(ttl + math.max(0, pacedAt - arrival)))
  end
end
return string.format('%.17g', departure)
`;

/** KEYS[1] the pause key; ARGV[1] the epoch ms it lasts until. A later pause wins; it expires a minute after. */
export const PAUSE_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local until_ms = tonumber(ARGV[1])
if until_ms > current then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('PEXPIREAT', KEYS[1], math.ceil(until_ms + 60000))
end
return 1
`;
