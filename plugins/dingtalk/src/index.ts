export { dingtalk, toCardParamMap, type DingTalkPlugin, type DingTalkPluginOptions } from './plugin.js';
export {
  DingTalkConfigSchema,
  TemplateKeysSchema,
  DingTalkConfigError,
  parseDingTalkConfig,
  DINGTALK_API_BASE_URL,
  type DingTalkConfig,
  type DingTalkConfigInput,
} from './config.js';
export { DINGTALK_DEFAULTS } from './defaults.js';
export { DingTalkTargetSchema, deliveryFields, type DingTalkTarget } from './target.js';
export { DingTalkRenderer, FLOW_STATUS, type DingTalkCardPayload, type DingTalkRendererOptions } from './renderer.js';
export { DingTalkTransport, outTrackIdFor, SEND_TRANSITIONS, type CardSendPhase, type DingTalkTransportOptions } from './transport.js';
export { classifyDingTalkError, QPS_RETRY_AFTER_MS, QPM_RETRY_AFTER_MS, GONE_CODES, AUTH_CODES } from './classify.js';
export { AccessTokenCache, TOKEN_REFRESH_MARGIN_MS } from './token.js';
export { DingTalkHttp, ACCESS_TOKEN_HEADER } from './http.js';
export {
  DingTalkApiError,
  DingTalkDeliveryError,
  DingTalkNetworkError,
  DingTalkTargetError,
  type DingTalkOperation,
  type FailedDelivery,
} from './errors.js';
export { escapeInline, normalizeAgentMarkdown, truncateMarkdown, openFence } from './markdown.js';
export { CARD_TEXTS, STATUS_ICONS, STATUS_COLOR_TOKENS, type CardTexts } from './texts.js';
