import type { BudgetKey, BudgetWindow } from '../contract.js';

/**
 * A rate limit as a platform announced it on one answer, e.g. Discord's `X-RateLimit-Bucket`,
 * `-Limit`, `-Remaining` and `-Reset-After` headers
 * (https://discord.com/developers/docs/topics/rate-limits#header-format).
 */
export interface LimitAnnouncement {
  /**
   * The platform's name of the budget the call drew from (Discord `X-RateLimit-Bucket`); routes
   * announcing the same bucket share one budget key. Absent: the route is its own bucket.
   */
  readonly bucket?: string;
  /** Calls the bucket allows per window (`X-RateLimit-Limit`), a positive integer. */
  readonly limit: number;
  /** Calls left in the current window (`X-RateLimit-Remaining`), ≥ 0. */
  readonly remaining: number;
  /** Ms until the window resets (`X-RateLimit-Reset-After`, seconds × 1000), ≥ 0. */
  readonly resetAfterMs: number;
  /** Epoch ms at which the answer carrying it was received. */
  readonly receivedAt: number;
}

interface LearnedBucket {
  /** Longest reset-after seen: the window length (a fresh window announces all of it). */
  windowMs: number;
  limit: number;
  windows: readonly BudgetWindow[];
  /** Epoch ms until which the window is spent (remaining 0), else 0. */
  spentUntil: number;
}

/**
 * Budgets learned from the limits a platform announces on its answers, for a plugin whose platform
 * says "rate limits should not be hard coded" (Discord,
 * https://discord.com/developers/docs/topics/rate-limits). The transport {@link report}s each answer's
 * announcement; `budgetKeys` asks {@link keysFor} before every call and gets:
 * - the bucket's key, paced at `limit` calls per window, where the window is the longest
 *   `resetAfterMs` seen (the first call of a fresh window announces all of it); when the platform
 *   changes its limits, the next answer changes the windows and the `BudgetStore` follows;
 * - `notBefore` = the reset time while the platform says the window is spent (`remaining` 0), so a
 *   budget shared with other processes or lowered mid-window is still honoured;
 * - before the first answer of a route: a probe key that lets one call per `probeWindow` go (the
 *   platform then tells the rest).
 * Routes are named by the plugin (a route template and its top-level resource, e.g.
 * `POST /channels/123/messages`). Memory: one entry per route and bucket seen.
 */
export class AnnouncedLimits {
  private readonly bucketOfRoute = new Map<string, string>();
  private readonly buckets = new Map<string, LearnedBucket>();

  /**
   * @param prefix prepended to every key (e.g. `discord:<app>`), so keys are global in a shared store.
   * @param probeWindow budget of a route not yet announced (e.g. one call per second).
   * @throws RangeError when `probeWindow` has a non-positive or non-integer limit or interval.
   */
  constructor(
    private readonly prefix: string,
    private readonly probeWindow: BudgetWindow,
  ) {
    if (!Number.isSafeInteger(probeWindow.limit) || probeWindow.limit <= 0 || !Number.isSafeInteger(probeWindow.intervalMs) || probeWindow.intervalMs <= 0) {
      throw new RangeError(`AnnouncedLimits probeWindow must have positive integer limit and intervalMs, got ${JSON.stringify(probeWindow)}`);
    }
  }

  /**
   * Records what the platform announced on an answer to a call of `route` (429 answers included).
   * An announcement with a non-positive or non-finite limit, or a negative remaining or reset, is
   * ignored (a platform error must not stop the pacing). Never throws.
   */
  report(route: string, announcement: LimitAnnouncement): void {
    const { limit, remaining, resetAfterMs, receivedAt } = announcement;
    if (!Number.isFinite(limit) || limit < 1 || !Number.isFinite(remaining) || remaining < 0 || !Number.isFinite(resetAfterMs) || resetAfterMs < 0 || !Number.isFinite(receivedAt)) return;
    const bucketName = `${announcement.bucket ?? route}`;
    this.bucketOfRoute.set(route, bucketName);
    const whole = Math.max(1, Math.floor(limit));
    const resetMs = Math.max(1, Math.ceil(resetAfterMs));
    const known = this.buckets.get(bucketName);
    // A changed limit starts a new window: its reset-after is the new window length.
    const windowMs = known && known.limit === whole ? Math.max(known.windowMs, resetMs) : resetMs;
    const windows = known && known.limit === whole && known.windowMs === windowMs ? known.windows : [{ limit: whole, intervalMs: windowMs }];
    // A spent window stays spent until its reset unless the limit changed: an answer that left
    // earlier may arrive later, still showing calls remaining.
    const stillSpent = known && known.limit === whole && known.spentUntil > receivedAt ? known.spentUntil : 0;
    const spentUntil = remaining < 1 ? receivedAt + resetMs : stillSpent;
    this.buckets.set(bucketName, { windowMs, limit: whole, windows, spentUntil });
  }

  /** The budget key of one call of `route` (see the class comment). Pure and cheap. */
  keysFor(route: string): BudgetKey {
    const bucketName = this.bucketOfRoute.get(route);
    const bucket = bucketName === undefined ? undefined : this.buckets.get(bucketName);
    if (!bucket) return { key: `${this.prefix}:probe:${route}`, windows: [this.probeWindow] };
    return { key: `${this.prefix}:bucket:${bucketName}`, windows: bucket.windows, ...(bucket.spentUntil > 0 ? { notBefore: bucket.spentUntil } : {}) };
  }

  /** What was learned for `route`: its bucket's limit and window (ms), undefined before the first answer. */
  learned(route: string): { readonly bucket: string; readonly limit: number; readonly windowMs: number } | undefined {
    const bucketName = this.bucketOfRoute.get(route);
    const bucket = bucketName === undefined ? undefined : this.buckets.get(bucketName);
    return bucket && bucketName !== undefined ? { bucket: bucketName, limit: bucket.limit, windowMs: bucket.windowMs } : undefined;
  }
}
