/**
 * Floors: the least p99 any design could reach for a run's first card and its final, from counting
 * alone. Every run needs one new message (its first card, or its final when no card was sent before
 * the run ended) from its app's send route, and a route of windows "at most `limit` calls in any
 * `intervalMs`" carries at most `limit × (⌊t / intervalMs⌋ + 1)` calls in the first `t` ms of a point.
 * So at every moment `t`, of the runs (of one app) that started — or ended — by `t − δ`, all but that
 * many have waited longer than `δ` for their first card — or their final. The floor is the least `δ`
 * at which at most 1 % of all runs wait longer, over every app (cards sticky per chat).
 *
 * Generous on purpose (a floor, not an estimate): it grants the route to these messages alone (no
 * continuation parts, no other call on a shared key such as DingTalk's streaming route), an oracle
 * that knows which runs end first, no latency, and the platform's windows without the product's
 * safety margins.
 */

/** A window of a route: at most `limit` calls in any `intervalMs` ms. */
export interface RouteWindow {
  readonly limit: number;
  readonly intervalMs: number;
}

/** Most calls the windows allow in the first `t` ms (t ≥ 0) of a point whose route was idle before. */
function capacity(windows: readonly RouteWindow[], t: number): number {
  let most = Number.POSITIVE_INFINITY;
  for (const window of windows) most = Math.min(most, window.limit * (Math.floor(t / window.intervalMs) + 1));
  return most;
}

/** Count of `sorted` values ≤ `x`. */
function countAtMost(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Least runs of one app that wait longer than `delayMs` when their messages are due at `dueAt`
 * (sorted ms after the point starts): max over `t` of (messages due by `t − delayMs`) − capacity(t).
 * The maximum is reached just before the capacity steps up (at each multiple of a window's interval).
 */
function lateAtLeast(dueAt: readonly number[], windows: readonly RouteWindow[], delayMs: number): number {
  const last = dueAt.at(-1);
  if (last === undefined) return 0;
  let late = Math.max(0, dueAt.length - capacity(windows, last + delayMs));
  const horizon = last + delayMs;
  for (const window of windows) {
    for (let step = window.intervalMs; step <= horizon + window.intervalMs; step += window.intervalMs) {
      const t = step - 1;
      late = Math.max(late, countAtMost(dueAt, t - delayMs) - capacity(windows, t));
    }
  }
  return late;
}

/**
 * The least p99 (ms, to the millisecond) of the wait from each run's due time to its new message, over
 * every app: `dueAtPerApp` holds each app's due times (ms after the point starts). 0 when the
 * windows leave every message in time.
 */
export function p99FloorMs(dueAtPerApp: readonly (readonly number[])[], windows: readonly RouteWindow[]): number {
  const apps = dueAtPerApp.map((dueAt) => [...dueAt].sort((a, b) => a - b));
  const runs = apps.reduce((sum, dueAt) => sum + dueAt.length, 0);
  // The tracker's percentile: the ⌈0.99 n⌉-th value; so at most n − ⌈0.99 n⌉ runs may wait longer.
  const allowedLate = runs - Math.ceil(0.99 * runs);
  const lateAt = (delayMs: number) => apps.reduce((sum, dueAt) => sum + lateAtLeast(dueAt, windows, delayMs), 0);
  if (lateAt(0) <= allowedLate) return 0;
  let lo = 0;
  let hi = 10_000;
  while (lateAt(hi) > allowedLate) hi *= 2;
  while (hi - lo > 1) {
    const mid = Math.round((lo + hi) / 2);
    if (lateAt(mid) <= allowedLate) hi = mid;
    else lo = mid;
  }
  return hi;
}
