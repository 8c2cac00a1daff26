/**
 * What the WeCom AI bot emulator enforces (durations in ms).
 * - `pollIntervalMs`: WeCom polls a stream about once a second (third-party observation; the
 *   official page 100719 gives no rate: UNCONFIRMED).
 * - `streamWindowMs`: polls stop 6 minutes after the user's message (document 100719, 流程说明).
 * - `streamBytes`: `stream.content` ≤ 20 480 bytes (document 101031).
 * - `responseUrlTtlMs`: a `response_url` takes one call within 1 hour (document 101138).
 * - `maxInteractionsPerUser`: a user has at most 3 messages in interaction with a bot (document 100719).
 * - `idleExpiryMs`: a stream whose polls get no valid stream reply for this long is dropped with
 *   846608 (the official plugin's "stream expired" code; the idle rule itself is UNCONFIRMED).
 * - `pollTimeoutMs`: how long WeCom waits for the bot's answer to one poll (WeCom's usual 5 s: UNCONFIRMED).
 */
export interface WeComLimits {
  readonly pollIntervalMs: number;
  readonly streamWindowMs: number;
  readonly streamBytes: number;
  readonly responseUrlTtlMs: number;
  readonly maxInteractionsPerUser: number;
  readonly idleExpiryMs: number;
  readonly pollTimeoutMs: number;
}

/** WeCom's limits as documented (see {@link WeComLimits}). */
export const DEFAULT_WECOM_LIMITS: WeComLimits = {
  pollIntervalMs: 1000,
  streamWindowMs: 6 * 60_000,
  streamBytes: 20_480,
  responseUrlTtlMs: 60 * 60_000,
  maxInteractionsPerUser: 3,
  idleExpiryMs: 60_000,
  pollTimeoutMs: 5000,
};

/**
 * Error codes the emulator answers. 846608 is the official plugin's "stream expired"; the codes for
 * a spent or expired `response_url` are not documented (UNCONFIRMED): the emulator picks its own and
 * says so in `errmsg`.
 */
export const WECOM_CODES = {
  ok: 0,
  streamExpired: 846608,
  freqOutOfLimit: 45009,
  responseUrlUsed: 846699,
  responseUrlExpired: 846698,
  systemBusy: -1,
} as const;
