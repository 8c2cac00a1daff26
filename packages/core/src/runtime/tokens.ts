import type { InjectionToken } from 'tsyringe';
import type { BudgetStore } from '../delivery/budget-store.js';
import type { CardStore } from '../delivery/card-store.js';
import type { RetrySettings } from '../delivery/retry-settings.js';
import type { ChannelPlugin } from '../plugin/contract.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';

/**
 * Injection tokens of the seams that vary. `createProgressCards` registers a default for each one
 * that neither its options nor its `parent` container supply; register one in a parent container
 * to give it to several compositions (e.g. one {@link BudgetStore} for two products of one app).
 */
export const TOKENS = {
  /** Card time ({@link Clock}). */
  Clock: Symbol.for('progresscard.Clock') as InjectionToken<Clock>,
  Logger: Symbol.for('progresscard.Logger') as InjectionToken<Logger>,
  /** `process.env`-like map read for `<CHANNEL>_CARD_TOOL_TICK_MS`. */
  Env: Symbol.for('progresscard.Env') as InjectionToken<Readonly<Record<string, string | undefined>>>,
  /** Every registered channel plugin (resolve with `resolveAll`). */
  ChannelPlugin: Symbol.for('progresscard.ChannelPlugin') as InjectionToken<ChannelPlugin>,
  /** Retry timing of deliveries. */
  RetrySettings: Symbol.for('progresscard.RetrySettings') as InjectionToken<RetrySettings>,
  /** Where channel API budgets live (default one `InMemoryBudgetStore` per composition). */
  BudgetStore: Symbol.for('progresscard.BudgetStore') as InjectionToken<BudgetStore>,
  /** Where open cards' delivery state lives (default one `InMemoryCardStore` per composition). */
  CardStore: Symbol.for('progresscard.CardStore') as InjectionToken<CardStore>,
} as const;
