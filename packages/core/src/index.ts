import 'reflect-metadata';

// events/: what an agent feeds a card.
export * from './events/contract.js';
export { EventParseError, parseEvent } from './events/parse.js';
export { describeInvalidInput, type InputProblem } from './events/invalid-input.js';
export { showValue } from './shared/show-value.js';
export { MAX_TIMER_MS } from './shared/timer-duration.js';

// card/: event → card state → view (pure).
export * from './card/view.js';
export { CardState, type ApplyResult, type CardStateOptions, type ChangeKind } from './card/card-state.js';
export { TextBuffer, DEFAULT_TEXT_BUFFER_LIMITS, type TextBufferLimits, type TextKind } from './card/text-buffer.js';
export { toolDetail, toolLineText, MAX_TOOL_DETAIL_CHARS, type ToolLineParts } from './card/tool-lines.js';
export { formatDuration } from './card/format/duration.js';
export { noProgressSince, DEFAULT_QUIET_PERIOD_MS } from './card/liveness.js';
export { checkPriceTable, type ModelPrice, type PriceTable } from './card/cost.js';
export { takeAnswerImages, MAX_CARD_IMAGES, type CardImage, type CardImageSource, type AnswerImages } from './card/images.js';
export {
  resolveVerbosity,
  viewForVerbosity,
  DEFAULT_VERBOSITY,
  type ChatType,
  type VerbositySetting,
} from './card/verbosity.js';
export {
  formatFooter,
  formatTokenCount,
  formatClockTime,
  formatCost,
  FOOTER_FIELDS,
  type FooterStyle,
  type FooterField,
  type FooterOptions,
} from './card/format/footer.js';

// plugin/: where a channel plugs in.
export * from './plugin/contract.js';
export type { StandardSchemaV1 } from './shared/standard-schema.js';
export * from './plugin/kit/index.js';
export { tickEnvName, resolveChannelSettings } from './plugin/channel-settings.js';
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
} from './plugin/memory-channel.js';

// delivery/: card → platform calls.
export { InMemoryBudgetStore, budgetSafetyMarginMs, pacingIntervalMs, type BudgetStore, type SlotRequest } from './delivery/budget-store.js';
export { InMemoryCardStore, type CardStore, type StoredCard, type StoredTool, type CardLease, type LeaseRenewal } from './delivery/card-store.js';
export { CardLeases, DEFAULT_LEASE_TTL_MS } from './delivery/card-leases.js';
export { DEFAULT_ORPHAN_GRACE_MS } from './runtime/orphan-sweeper.js';
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './delivery/retry-settings.js';
export { DEFAULT_CALL_TIMEOUT_MS } from './delivery/call-timeout.js';
export {
  FAILURE_ACTIONS,
  FRESH_MESSAGE_AFTER,
  PHASE_TRANSITIONS,
  finalLadder,
  type CardDeliveryPhase,
  type FailureAction,
  type FinalLadderRung,
} from './delivery/delivery-policy.js';
export type { FinalDelivery, FinalSkipReason, MessagePhase } from './delivery/card-delivery-record.js';
export type { ChannelStats } from './delivery/channel-dispatcher.js';
export type { DeliveryCall, DeliveryEvent, DeliveryListener } from './delivery/delivery-observers.js';

// runtime and the composition root.
export { systemClock, type Clock } from './shared/clock.js';
export { consoleLogger, silentLogger, type Logger } from './shared/logger.js';
export { TOKENS } from './runtime/tokens.js';
export { ChannelRegistry, type ChannelRegistryDeps } from './delivery/channel-registry.js';
export type { ProgressCard, PushResult, OpenCardOptions } from './runtime/progress-card.js';
export { TickerService, type Tickable, type Ticker } from './runtime/ticker.js';
export { DEFAULT_STALL_SETTINGS, type StallSettings } from './runtime/stall-watch.js';
export { installShutdownHandlers, DEFAULT_SHUTDOWN_DEADLINE_MS, INTERRUPTED_REASONS, type ShutdownOptions, type ShutdownHandlerOptions } from './runtime/shutdown.js';
export { createProgressCards, createContainer, type ProgressCards, type ProgressCardsStore, type ProgressCardsOptions, type ProgressCardsDiagnostics, type OpenOptions } from './compose.js';
export { completionPingText } from './runtime/completion-ping.js';
export { tickStretch } from './runtime/call-cap.js';

// interaction/: questions and Stop on the card, clicks routed back to the agent.
export { InteractionRouter, type InteractionEntry, type InteractivePlugin } from './interaction/router.js';
export { INTERACTION_TEXTS, type InteractionTexts } from './plugin/interaction-texts.js';
export { interactionCode } from './card/interaction-state.js';
export { DEFAULT_INTERACTION_TIMEOUT_MS } from './runtime/card-interactions.js';
export type {
  Answer,
  ApprovalOption,
  ApprovalRequest,
  AskRequest,
  Decision,
  StopHandler,
} from './interaction/types.js';
