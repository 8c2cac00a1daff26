// Only Feishu-prefixed names leave this folder, so `export *` next to the DingTalk half cannot clash.
export { FEISHU_ROUTES, FEISHU_ROUTE_NAMES, FeishuErrors, CardKitErrors as FeishuCardKitErrors, type FeishuRoute, type FeishuError } from './codes.js';
export * from './types.js';
export type { FeishuApp, IssuedToken as FeishuIssuedToken, TokenState as FeishuTokenState } from './tokens.js';
export {
  MESSAGE_TRANSITIONS as FEISHU_MESSAGE_TRANSITIONS,
  FeishuMessageControlError,
  type MessageState as FeishuMessageState,
} from './messages.js';
export {
  DEFAULT_CARD_LIMITS as DEFAULT_FEISHU_CARD_LIMITS,
  checkCardContent as checkFeishuCardContent,
  type CardLimits as FeishuCardLimits,
  type CheckedCard as FeishuCheckedCard,
  type CardCheck as FeishuCardCheck,
} from './card-rules.js';
export { DEFAULT_FEISHU_LIMITS, FeishuEmulatorOptionError } from './options.js';
export * from './emulator.js';
export {
  CARD_CALLBACK_ROUTE as FEISHU_CARD_CALLBACK_ROUTE,
  type FeishuCallbackConfig,
  type FeishuCallbackResult,
  type FeishuClick,
  type FeishuHttpCallbackConfig,
  type FeishuLongConnectionCallbackConfig,
} from './callbacks.js';
export { LONG_CONNECTION_AUTH_FAILED as FEISHU_LONG_CONNECTION_AUTH_FAILED, LONG_CONNECTION_LIMIT_EXCEEDED as FEISHU_LONG_CONNECTION_LIMIT_EXCEEDED } from './long-connection.js';
export type { FeishuCardEntitySnapshot } from './card-entities.js';
export { FEISHU_EMOJI_TYPES } from './routes-resources.js';
export type { StoredFile as FeishuStoredFile, StoredImage as FeishuStoredImage, StoredReaction as FeishuStoredReaction } from './types.js';
