import 'reflect-metadata';

export * from './events.js';
export { describeInvalidInput, showValue, type InputProblem } from './invalid-input.js';
export * from './view.js';
export * from './plugin.js';
export * from './plugin/kit/index.js';
export { formatDuration } from './format/duration.js';
export { formatFooter, formatTokenCount, formatClockTime, type FooterStyle, type FooterOptions } from './format/footer.js';
export { toolDetail, toolLineText, MAX_TOOL_DETAIL_CHARS, type ToolLineParts } from './tool-lines.js';
export { CardSession, type ApplyResult, type CardSessionOptions, type ChangeKind } from './session.js';
export { TextBuffer, DEFAULT_TEXT_BUFFER_LIMITS, type TextBufferLimits, type TextKind } from './text-buffer.js';
export { systemClock, type Clock } from './clock.js';
export { consoleLogger, silentLogger, type Logger } from './logger.js';
export { TOKENS, DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './tokens.js';
export { tickEnvName, resolveChannelSettings } from './settings.js';
export { TickerService, type Tickable } from './ticker.js';
export { ChannelBudget, budgetSafetyMarginMs } from './budget.js';
export type { FinalDelivery, DeliveryPhase, MessagePhase } from './card-delivery.js';
export type { ChannelStats } from './channel-scheduler.js';
export { DeliveryScheduler } from './delivery-scheduler.js';
export type { ProgressCard, PushResult, OpenCardOptions } from './progress-card.js';
export { createProgressCards, type ProgressCards, type ProgressCardsOptions } from './compose.js';
export {
  memoryChannel,
  MEMORY_CHANNEL_DEFAULTS,
  type MemoryChannel,
  type MemoryChannelOptions,
  type MemoryPayload,
  type MemoryCall,
  type MemoryMessage,
  type MemoryFault,
} from './memory-channel.js';
