/**
 * The card store's lease rules as Lua scripts, atomic across processes. A card is a hash: `json`
 * (the stored card), and its lease as `owner`, `expiresAt` (epoch ms) and `token` (fencing token);
 * the set of card ids is the index.
 */

/** KEYS: card, index. ARGV: json, token, owner, expiresAt, cardId, keepMs. Returns 1, or 0 when fenced. */
export const PUT_CARD_SCRIPT = `
local token = redis.call('HGET', KEYS[1], 'token')
if token and tonumber(token) ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'token', ARGV[2], 'owner', ARGV[3], 'expiresAt', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('SADD', KEYS[2], ARGV[5])
return 1
`;

/** KEYS: card, index. ARGV: token, cardId. Returns 1, or 0 when fenced. */
export const DELETE_CARD_SCRIPT = `
local token = redis.call('HGET', KEYS[1], 'token')
if token and tonumber(token) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[2])
return 1
`;

/** KEYS: card. ARGV: owner, expiresAt, now. Returns the new fencing token, or -1 when not free (or not stored). */
export const CLAIM_CARD_SCRIPT = `
local lease = redis.call('HMGET', KEYS[1], 'owner', 'expiresAt', 'token')
if not lease[3] then return -1 end
if lease[1] ~= ARGV[1] and tonumber(lease[2]) > tonumber(ARGV[3]) then return -1 end
local token = tonumber(lease[3]) + 1
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'expiresAt', ARGV[2], 'token', token)
return token
`;

/**
 * KEYS: the cards. ARGV: owner, expiresAt, then each card's token. Returns the 1-based indexes of the
 * cards lost, and the negated indexes of those not stored.
 */
export const RENEW_CARDS_SCRIPT = `
local lost = {}
for i = 1, #KEYS do
  local token = redis.call('HGET', KEYS[i], 'token')
  if not token then
    lost[#lost + 1] = -i
  else
    if tonumber(token) ~= tonumber(ARGV[i + 2]) then
      lost[#lost + 1] = i
    else
      redis.call('HSET', KEYS[i], 'owner', ARGV[1], 'expiresAt', ARGV[2])
    end
  end
end
return lost
`;
