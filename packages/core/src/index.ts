import 'reflect-metadata';

/**
 * `@progresscard/core`: what an agent product needs to show its runs as live cards. Plugin authors
 * (channels, the kit a renderer and transport use) import `@progresscard/core/plugin`; tests import
 * `@progresscard/core/testing`; people who implement a shared store import `@progresscard/core/store`.
 * Everything else in the package is internal.
 */

// The composition: open cards on channels, resume them after a restart, shut down.
export { createProgressCards, createContainer, type ProgressCards, type ProgressCardsStore, type ProgressCardsOptions, type ProgressCardsDiagnostics, type OpenOptions } from './compose.js';
export { TOKENS } from './runtime/tokens.js';
export type { Ticker, Tickable } from './runtime/ticker.js';
export type { ProgressCard, PushResult, OpenCardOptions } from './runtime/progress-card.js';
export { installShutdownHandlers, DEFAULT_SHUTDOWN_DEADLINE_MS, INTERRUPTED_REASONS, type ShutdownOptions, type ShutdownHandlerOptions } from './runtime/shutdown.js';
export { DEFAULT_STALL_SETTINGS, type StallSettings } from './runtime/stall-watch.js';
export { DEFAULT_ORPHAN_GRACE_MS } from './runtime/orphan-sweeper.js';
export { DEFAULT_INTERACTION_TIMEOUT_MS } from './runtime/card-interactions.js';
export { completionPingText } from './runtime/completion-ping.js';
export { tickStretch } from './delivery/calls/call-cap.js';
export { systemClock, type Clock } from './shared/clock.js';
export { consoleLogger, silentLogger, type Logger } from './shared/logger.js';
export { MAX_TIMER_MS } from './shared/timer-duration.js';

// Stores: API budgets (the throttle) and open cards, in memory or shared (`@progresscard/redis`).
// What a store implementation needs beyond these (slot ranks, pacing, the safety margin, the
// stored shapes) is in `@progresscard/core/store`.
export { InMemoryBudgetStore, type BudgetStore } from './delivery/rate-limits/budget-store.js';
export { InMemoryCardStore, type CardStore } from './delivery/durable/card-store.js';
export { DEFAULT_LEASE_TTL_MS } from './delivery/durable/card-leases.js';
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './delivery/failures/retry-settings.js';
export { DEFAULT_CALL_TIMEOUT_MS } from './delivery/calls/call-timeout.js';
export type { FinalDelivery, FinalSkipReason, MessagePhase } from './delivery/card-delivery-record.js';
export type { CardDeliveryPhase } from './delivery/card-delivery-phases.js';
export type { ChannelStats } from './delivery/channel-dispatcher.js';
export type { DeliveryCall, DeliveryEvent, DeliveryListener } from './delivery/delivery-observers.js';

// Events: what an agent feeds a card.
export type * from './events/contract.js';
export { AgentEventSchema, isTerminalEvent, TERMINAL_EVENT_TYPES, EARLIEST_EVENT_TIME_MS, LATEST_EVENT_TIME_MS } from './events/contract.js';
export { EventParseError, parseEvent } from './events/parse.js';
export { describeInvalidInput, type InputProblem } from './events/invalid-input.js';

// The card: its state and view (what `ProgressCard.view()` returns), cost, verbosity.
export type * from './card/view.js';
export { isTerminalStatus, TERMINAL_STATUSES } from './card/view.js';
export { CardState, type ApplyResult, type CardStateOptions, type ChangeKind } from './card/card-state.js';
export { toolDetail, type ToolLineParts } from './card/tool-lines.js';
export { CHANNEL_DEFAULT_LOCALES, type LocaleSetting } from './card/locale.js';
export { redactSecrets, SECRET_PATTERNS, type Redact, type RedactionOption, type SecretPattern } from './card/redaction.js';
export { noProgressSince, DEFAULT_QUIET_PERIOD_MS } from './card/liveness.js';
export { checkPriceTable, type ModelPrice, type PriceTable } from './card/cost.js';
export { MAX_CARD_IMAGES, type CardImage, type CardImageSource, type AnswerImages } from './card/images.js';
export { DEFAULT_VERBOSITY, type ChatType, type VerbositySetting } from './card/verbosity.js';

// Channels: the types of the plugins a product passes in, the in-memory channel, config errors.
export type * from './plugin/contract.js';
export { resolveChannelSettings } from './plugin/channel-settings.js';
export { appPool, type AppPool, type AppPoolOptions, type AppSpread } from './plugin/app-pool.js';
export { appEnv, appsFromEnv, type AppsFromEnvFactory } from './plugin/apps-from-env.js';
export { ChannelConfigError } from './plugin/kit/config.js';
export { MissingEnvError } from './plugin/kit/env.js';
export {
  memoryChannel,
  MEMORY_CHANNEL_DEFAULTS,
  type MemoryChannel,
  type MemoryChannelOptions,
  type MemoryPayload,
  type MemoryCall,
  type MemoryReply,
  type MemoryMessage,
  type MemoryFault,
  type MemoryStream,
  type MemoryStreamOptions,
} from './plugin/memory-channel.js';

// Questions and Stop on the card, clicks routed back to the agent.
export type { Answer, ApprovalOption, ApprovalRequest, AskRequest, Decision, StopHandler } from './interaction/types.js';
export { InMemoryClickRelay, type ClickRelay, type RelayedClickHandler } from './interaction/click-relay.js';
