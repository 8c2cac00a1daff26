/** Default quiet period after which a running card says it has had no new progress, in ms. */
export const DEFAULT_QUIET_PERIOD_MS = 60_000;

/**
 * The liveness rule, a pure function of time: when a running card's latest event arrived at
 * `lastEventAt` and nothing came for `quietPeriodMs` or longer up to `now`, returns `lastEventAt`
 * (the "no new progress since 12:03" time); otherwise `undefined`. A `quietPeriodMs` of 0 turns the
 * note off. All times epoch ms.
 */
export function noProgressSince(lastEventAt: number, now: number, quietPeriodMs: number): number | undefined {
  if (quietPeriodMs <= 0) return undefined;
  return now - lastEventAt >= quietPeriodMs ? lastEventAt : undefined;
}
