export { feishu, FEISHU_DEFAULTS, type FeishuPlugin } from './plugin.js';
export {
  FeishuConfigSchema,
  FeishuConfigError,
  parseFeishuConfig,
  RECEIVE_ID_TYPES,
  type FeishuConfig,
  type FeishuConfigInput,
  type ReceiveIdType,
} from './config.js';
export type { FeishuCard, FeishuElement, FeishuPayload, FeishuTemplate } from './card-types.js';
export { renderCard, MAX_THINKING_CHARS, type CardRenderOptions } from './render/card.js';
export { renderFallbackCard } from './render/fallback.js';
export { CARD_TEXTS, STATUS_TEMPLATE, statusLine, type CardTexts } from './render/texts.js';
export {
  FEISHU_GUARD_LIMITS,
  ELEMENT_ID_PATTERN,
  inspectCard,
  cardFits,
  fitText,
  prepareAgentMarkdown,
  type GuardLimits,
  type CardInspection,
} from './guards.js';
export { escapeCardMarkdown, limitTables, countTables, truncateMarkdown, splitBlocks } from './markdown/index.js';
export {
  classifyFeishuError,
  FeishuApiError,
  FeishuLocalError,
  GONE_CODES,
  AUTH_CODES,
  MESSAGE_RATE_LIMIT_CODE,
  APP_RATE_LIMIT_CODE,
} from './classify.js';
export { FeishuTransport, toFeishuUuid, type FeishuTarget, type FeishuTransportOptions } from './transport.js';
export { TokenCache } from './token-cache.js';
