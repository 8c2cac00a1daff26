import { createHash } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { SlidingWindowLimiter } from '../common/rate-limiter.js';

/** A bucket's limit: `limit` calls per window of `windowMs`, the window starting at its first call. */
export interface DiscordBucketLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** What the limiter decided for one call, with the headers to answer. */
export interface DiscordRateDecision {
  readonly allowed: boolean;
  /** `X-RateLimit-*` headers (https://discord.com/developers/docs/topics/rate-limits#header-format). */
  readonly headers: Record<string, string>;
  /** For a refused call: the 429 body. */
  readonly body?: { readonly message: string; readonly retry_after: number; readonly global: boolean };
  /** Uncounts an allowed call from its bucket and the global limit (a call answered otherwise, e.g. an injected fault); no-op for a refused call. */
  readonly release: () => void;
}

interface Window {
  start: number;
  count: number;
  limit: DiscordBucketLimit;
}

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

/**
 * Discord's rate limits as the emulator enforces and announces them: a bucket per route and
 * top-level resource (the channel), whose window opens at its first call and allows `limit` calls
 * until it resets; every answer carries `X-RateLimit-Limit / -Remaining / -Reset / -Reset-After /
 * -Bucket`. A limit changed with {@link setLimit} applies from each bucket's next window (a
 * window already open keeps the limit it announced). The global limit (50 a second per bot)
 * answers 429 with `global: true` and `X-RateLimit-Global`.
 */
export class DiscordBuckets {
  private readonly limits = new Map<string, DiscordBucketLimit>();
  private readonly windows = new Map<string, Window>();
  private readonly global: SlidingWindowLimiter;

  constructor(
    private readonly clock: Clock,
    initial: Readonly<Record<string, DiscordBucketLimit>>,
    globalPerSecond: number,
  ) {
    for (const [route, limit] of Object.entries(initial)) this.setLimit(route, limit);
    this.global = new SlidingWindowLimiter([{ limit: globalPerSecond, intervalMs: 1000 }], clock);
  }

  /** The bucket id announced for `route` (`X-RateLimit-Bucket`): stable, opaque. */
  static bucketOf(route: string): string {
    return createHash('sha1').update(route).digest('hex').slice(0, 16);
  }

  /** @throws RangeError for a non-positive limit or window. */
  setLimit(route: string, limit: DiscordBucketLimit): void {
    if (!Number.isInteger(limit.limit) || limit.limit <= 0 || !(limit.windowMs > 0)) throw new RangeError(`bucket limit of ${route} must have a positive integer limit and windowMs, got ${JSON.stringify(limit)}`);
    this.limits.set(route, limit);
  }

  limitOf(route: string): DiscordBucketLimit | undefined {
    return this.limits.get(route);
  }

  /** Counts one call of `route` on `resource` by `token`, or refuses it. */
  take(route: string, resource: string, token: string): DiscordRateDecision {
    const now = this.clock();
    const configured = this.limits.get(route);
    const global = this.global.tryAcquire(token);
    if (!global.allowed) {
      return {
        release: () => {},
        allowed: false,
        headers: { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global', 'retry-after': '1' },
        body: { message: 'You are being rate limited.', retry_after: 1, global: true },
      };
    }
    const releaseGlobal = () => this.global.release(token, global.at);
    if (!configured) return { allowed: true, headers: {}, release: releaseGlobal };
    const key = `${route}\u0000${resource}`;
    let window = this.windows.get(key);
    if (!window || now >= window.start + window.limit.windowMs) {
      window = { start: now, count: 0, limit: configured };
      this.windows.set(key, window);
    }
    const resetAt = window.start + window.limit.windowMs;
    const base = { 'x-ratelimit-limit': String(window.limit.limit), 'x-ratelimit-bucket': DiscordBuckets.bucketOf(route), 'x-ratelimit-reset': seconds(resetAt), 'x-ratelimit-reset-after': seconds(resetAt - now) };
    if (window.count >= window.limit.limit) {
      const retryAfter = Number(seconds(resetAt - now));
      return {
        release: () => {},
        allowed: false,
        headers: { ...base, 'x-ratelimit-remaining': '0', 'x-ratelimit-scope': 'user', 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) },
        body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
      };
    }
    window.count += 1;
    const counted = window;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      releaseGlobal();
      if (this.windows.get(key) === counted) counted.count -= 1;
    };
    return { allowed: true, headers: { ...base, 'x-ratelimit-remaining': String(window.limit.limit - window.count) }, release };
  }
}
