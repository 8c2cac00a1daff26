/**
 * `@progresscard/core/store`: for people who implement a store the core shares between processes —
 * a {@link BudgetStore} (the API budgets, the throttle), a {@link CardStore} (open cards' delivery
 * state and leases) or a {@link ClickRelay} (clicks handed to the process that holds a card), as
 * `@progresscard/redis` does. It holds the contracts and the numbers an implementation must apply
 * exactly as the in-memory stores do (slot ranks, pacing, the safety margin), so that cards of
 * processes on different stores still keep within one platform limit.
 *
 * A product that only passes a store in (`createProgressCards({ store })`) needs none of this: the
 * store types and the in-memory stores are exported by `@progresscard/core` as well.
 */
export {
  InMemoryBudgetStore,
  budgetSafetyMarginMs,
  pacingIntervalMs,
  type BudgetStore,
  type SlotRequest,
} from '../delivery/rate-limits/budget-store.js';
export { SLOT_RANK_POLICY, DEFAULT_SLOT_RANK, BURST_SPACING_SHARE, rankLimit, type SlotRank, type SlotRankPolicy } from '../delivery/rate-limits/slot-ranks.js';
export {
  InMemoryCardStore,
  type CardStore,
  type StoredCard,
  type StoredTool,
  type StoredFinal,
  type StoredFinishedTool,
  type CardLease,
  type LeaseRenewal,
} from '../delivery/durable/card-store.js';
export { DEFAULT_LEASE_TTL_MS } from '../delivery/durable/card-leases.js';
export { InMemoryClickRelay, type ClickRelay, type RelayedClickHandler } from '../interaction/click-relay.js';
export type { BudgetKey, BudgetWindow, ControlClick, ClickReply } from '../plugin/contract.js';
export type { Logger } from '../shared/logger.js';
