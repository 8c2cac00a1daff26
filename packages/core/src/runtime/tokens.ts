import type { InjectionToken } from 'tsyringe';
import type { BudgetStore } from '../delivery/rate-limits/budget-store.js';
import type { CardStore } from '../delivery/durable/card-store.js';
import type { ClickRelay } from '../interaction/click-relay.js';
import type { RetrySettings } from '../delivery/failures/retry-settings.js';
import type { ChannelPlugin } from '../plugin/contract.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { Ticker } from './ticker.js';

/**
 * Injection tokens of the seams a product may replace. `createProgressCards` resolves every
 * service of a composition from a tsyringe child container of its `parent`; for each token below
 * it uses, in this order, the matching option, what the `parent` container registers, or the
 * default. Register one in a parent container to give it to a composition (a fake clock in tests,
 * a Redis `BudgetStore`, your own ticker) or to several at once (one `BudgetStore` for two
 * products of one app):
 *
 * ```ts
 * const parent = createContainer();
 * parent.register(TOKENS.DeliveryClock, { useValue: myClock });
 * const cards = createProgressCards({ channels, parent });
 * ```
 */
export const TOKENS = {
  /**
   * Card time ({@link Clock}, epoch ms): event stamps, elapsed times and the footer. A trace replay
   * gives a clock that runs faster than real time. Default: the wall clock. Option: `clock`.
   */
  Clock: Symbol.for('progresscard.Clock') as InjectionToken<Clock>,
  /**
   * Delivery time ({@link Clock}, epoch ms): rate-limit windows, retry waits, card leases, the
   * orphan sweep and `resume`'s lease wait. Platform limits are in wall time, so this stays the wall
   * clock even when card time is replayed (default); register another for tests or a simulated
   * platform. Its timers are still Node's (`setTimeout`), so a clock that jumps ahead must move with them.
   */
  DeliveryClock: Symbol.for('progresscard.DeliveryClock') as InjectionToken<Clock>,
  /** Where warnings go ({@link Logger}). Default: stderr. Option: `logger`. */
  Logger: Symbol.for('progresscard.Logger') as InjectionToken<Logger>,
  /** `process.env`-like map read for `<CHANNEL>_CARD_TOOL_TICK_MS` and the like. Default: `process.env`. Option: `env`. */
  Env: Symbol.for('progresscard.Env') as InjectionToken<Readonly<Record<string, string | undefined>>>,
  /** Every channel plugin of the composition (resolved with `resolveAll`). Option: `channels` (added to the parent's). */
  ChannelPlugin: Symbol.for('progresscard.ChannelPlugin') as InjectionToken<ChannelPlugin>,
  /** Retry timing of deliveries ({@link RetrySettings}). Option: `retry` (merged over the parent's). */
  RetrySettings: Symbol.for('progresscard.RetrySettings') as InjectionToken<RetrySettings>,
  /**
   * The throttle: where channel API budgets live and slots are reserved ({@link BudgetStore}).
   * Default: one `InMemoryBudgetStore` per composition. Option: `store.budgets`.
   */
  BudgetStore: Symbol.for('progresscard.BudgetStore') as InjectionToken<BudgetStore>,
  /** Where open cards' delivery state and leases live ({@link CardStore}). Default: one `InMemoryCardStore` per composition. Option: `store.cards`. */
  CardStore: Symbol.for('progresscard.CardStore') as InjectionToken<CardStore>,
  /**
   * How clicks reach the process that owns the card ({@link ClickRelay}). Default: one
   * `InMemoryClickRelay` per composition, used only with a `store` (or when one is registered
   * here): then a click for a card of another process is handed to it. Option: `store.clicks`.
   */
  ClickRelay: Symbol.for('progresscard.ClickRelay') as InjectionToken<ClickRelay>,
  /**
   * What re-renders cards whose tools are running, once per tick ({@link Ticker}). Default: one
   * ticker per composition with one `setInterval` per distinct tick interval. The composition
   * disposes it at shutdown.
   */
  Ticker: Symbol.for('progresscard.Ticker') as InjectionToken<Ticker>,
} as const;
