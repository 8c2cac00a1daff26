export { startDingTalkEmulator, DINGTALK_DEFAULT_RATE_LIMIT } from './emulator.js';
export type {
  DingTalkEmulator,
  DingTalkEmulatorOptions,
  DingTalkFaultRule,
  DingTalkDeliveryFault,
  DingTalkCallRecord,
  DingTalkCardChange,
} from './types.js';
export { DINGTALK_ROUTES, DINGTALK_ROUTE_NAMES, type DingTalkRoute, type DingTalkChangeKind } from './handlers.js';
export {
  FLOW_STATUS_STATES,
  TERMINAL_CARD_STATES,
  type DingTalkCardState,
  type DingTalkCardSnapshot,
  type DingTalkCardSpace,
  type DingTalkDeliveryState,
} from './card-store.js';
export { DEFAULT_DINGTALK_APP, DEFAULT_TOKEN_TTL_SECONDS, type DingTalkAppCredentials } from './tokens.js';
export { QPS_LIMIT_MESSAGE, type DingTalkErrorEnvelope } from './errors.js';
export { parseOpenSpaceId, type DingTalkSpace, type DingTalkSpaceType } from './open-space.js';
