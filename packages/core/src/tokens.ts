import type { InjectionToken } from 'tsyringe';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { ChannelPlugin } from './plugin.js';

/** Injection tokens of the core. All injection uses explicit tokens (no decorator metadata). */
export const TOKENS = {
  Clock: Symbol.for('progresscard.Clock') as InjectionToken<Clock>,
  Logger: Symbol.for('progresscard.Logger') as InjectionToken<Logger>,
  /** `process.env`-like map read for `<CHANNEL>_CARD_TOOL_TICK_MS`. */
  Env: Symbol.for('progresscard.Env') as InjectionToken<Readonly<Record<string, string | undefined>>>,
  /** Every registered channel plugin (resolve with `resolveAll`). */
  ChannelPlugin: Symbol.for('progresscard.ChannelPlugin') as InjectionToken<ChannelPlugin>,
  /** The core's option defaults such as failures before pausing. */
  DeliveryPolicy: Symbol.for('progresscard.DeliveryPolicy') as InjectionToken<DeliveryPolicy>,
} as const;

/** Retry rules of the delivery scheduler. Durations in ms. */
export interface DeliveryPolicy {
  /** Backoff before each retry of the final state (default 1000, 2000, 4000). */
  readonly finalRetryDelaysMs: readonly number[];
  /** Backoff of a failed progressive update, by consecutive failure (default 1000, 2000, 4000). */
  readonly updateRetryDelaysMs: readonly number[];
  /** Consecutive failures after which progressive updates pause until the final (default 3). */
  readonly maxConsecutiveFailures: number;
  /** Wait after a rate-limited answer without a retry-after (default 1000). */
  readonly defaultRateLimitWaitMs: number;
}

/** The defaults of {@link DeliveryPolicy}. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  finalRetryDelaysMs: [1000, 2000, 4000],
  updateRetryDelaysMs: [1000, 2000, 4000],
  maxConsecutiveFailures: 3,
  defaultRateLimitWaitMs: 1000,
};
