/**
 * The paced budget of `BudgetStore.reserve` as one Lua script, so that a reservation over several
 * keys is atomic across every process using the Redis. Mirrors core's `InMemoryBudgetStore`: per key
 * the arrivals (newest last, the latest `max(limit)` kept, enough for every window), a pause, and the
 * earliest departure at which every key allows one more arrival.
 *
 * KEYS: for each budget key, its arrivals list then its pause key.
 * ARGV: notBefore, arrivalDelayMs, reserve (1) or only look (0), then for each key: its spacing (ms),
 * its window count n, and n pairs of limit and widened span (ms).
 * Returns the departure (epoch ms) as a string, so that fractions survive.
 */
export const RESERVE_SCRIPT = `
local notBefore = tonumber(ARGV[1])
local delay = tonumber(ARGV[2])
local reserve = ARGV[3] == '1'
local count = #KEYS / 2
local keys = {}
local pos = 4
local departure = notBefore
for i = 1, count do
  local key = { list = KEYS[2 * i - 1], spacing = tonumber(ARGV[pos]), windows = {}, maxLimit = 0, horizon = 0 }
  local n = tonumber(ARGV[pos + 1])
  pos = pos + 2
  local length = redis.call('LLEN', key.list)
  for w = 1, n do
    local window = { limit = tonumber(ARGV[pos]), span = tonumber(ARGV[pos + 1]) }
    pos = pos + 2
    if window.limit > key.maxLimit then key.maxLimit = window.limit end
    if window.span > key.horizon then key.horizon = window.span end
    if length >= window.limit then window.nth = tonumber(redis.call('LINDEX', key.list, -window.limit)) end
    key.windows[w] = window
  end
  local last = redis.call('LINDEX', key.list, -1)
  if last then key.last = tonumber(last) end
  local paused = redis.call('GET', KEYS[2 * i])
  if paused and tonumber(paused) > departure then departure = tonumber(paused) end
  keys[i] = key
end
local function earliest(key, arrival)
  local at = arrival
  if key.last then
    at = math.max(at, key.last + key.spacing)
    for _, window in ipairs(key.windows) do
      at = math.max(at, key.last + (window.span + delay) / window.limit)
      if window.nth then at = math.max(at, window.nth + window.span + delay) end
    end
  end
  return at
end
for round = 1, 16 do
  local candidate = departure
  for i = 1, count do candidate = math.max(candidate, earliest(keys[i], departure + delay) - delay) end
  if candidate == departure then break end
  departure = candidate
end
if reserve then
  local arrival = string.format('%.17g', departure + delay)
  for i = 1, count do
    local key = keys[i]
    redis.call('RPUSH', key.list, arrival)
    redis.call('LTRIM', key.list, -key.maxLimit, -1)
    redis.call('PEXPIRE', key.list, math.ceil(2 * key.horizon + delay))
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
