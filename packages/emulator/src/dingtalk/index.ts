// Only DingTalk-prefixed names leave this folder, so `export *` next to the Feishu half cannot clash.
export { createDingTalkEmulator, startDingTalkEmulator } from './emulator.js';
export { DINGTALK_DEFAULT_RATE_LIMIT, DingTalkEmulatorOptionError } from './options.js';
export type {
  DingTalkEmulator,
  DingTalkEmulatorCore,
  DingTalkEmulatorOptions,
  DingTalkDeliveryFault,
  DingTalkCallRecord,
  DingTalkCardChange,
  DingTalkCardSnapshot,
} from './types.js';
export {
  DINGTALK_ROUTES,
  DINGTALK_ROUTE_NAMES,
  DELIVERY_ROUTE as DINGTALK_DELIVERY_ROUTE,
  type DingTalkRoute,
  type DingTalkChangeKind,
} from './handlers.js';
export { TOKEN_HEADER as DINGTALK_TOKEN_HEADER } from './pipeline.js';
export {
  FLOW_STATUS_STATES as DINGTALK_FLOW_STATUS_STATES,
  TERMINAL_CARD_STATES as DINGTALK_TERMINAL_CARD_STATES,
  type DingTalkCardState,
  type DingTalkCardInstance,
  type DingTalkCardSpace,
  type DingTalkDeliveryState,
} from './card-store.js';
export { DEFAULT_DINGTALK_APP, DEFAULT_TOKEN_TTL_SECONDS as DINGTALK_DEFAULT_TOKEN_TTL_SECONDS, type DingTalkAppCredentials } from './tokens.js';
export { FAILED_STATE_FALLBACK_TEXT as DINGTALK_FAILED_STATE_FALLBACK_TEXT, displayOf as dingTalkDisplayOf, type DingTalkTemplateModel, type DingTalkCardDisplay } from './template-model.js';
export { MONTHLY_QUOTA_MESSAGE as DINGTALK_MONTHLY_QUOTA_MESSAGE, QPS_LIMIT_MESSAGE as DINGTALK_QPS_LIMIT_MESSAGE, type DingTalkErrorEnvelope } from './errors.js';
export { parseOpenSpaceId as parseDingTalkOpenSpaceId, type DingTalkSpace, type DingTalkSpaceType } from './open-space.js';
export { CARD_CALLBACK_TOPIC as DINGTALK_CARD_CALLBACK_TOPIC } from './stream.js';
export { dingTalkCallbackSignature, type DingTalkClick, type DingTalkCallbackResult } from './callbacks.js';
export type { DingTalkCallbackRoute } from './handlers.js';
export type { DingTalkRobotMessage } from './robot-messages.js';
export { DEFAULT_MAX_MEDIA_BYTES as DINGTALK_DEFAULT_MAX_MEDIA_BYTES, type DingTalkMediaFile } from './media.js';
