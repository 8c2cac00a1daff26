/**
 * `@progresscard/plugin-dingtalk`: the DingTalk channel. Build it with {@link dingtalk} and hand it
 * to `createProgressCards({ channels: [...] })`. Internals (renderer, markdown, transport, error
 * classification) are not part of the public API.
 */
export { dingtalk, type DingTalkPlugin, type DingTalkPluginOptions } from './plugin.js';
export { DINGTALK_ENV_VARIABLES } from './env.js';
export {
  DINGTALK_DEFAULTS,
  DINGTALK_MONTHLY_QUOTA,
  DINGTALK_API_BASE_URL,
  DingTalkConfigSchema,
  DingTalkConfigError,
  type DingTalkConfig,
  type DingTalkConfigInput,
} from './config.js';
export type { DingTalkCardPayload, FailedCardState, StreamEnd } from './render/payload.js';
export type { ContentMode } from './transport/card-writer.js';
export { DINGTALK_MAX_FILE_BYTES, DINGTALK_OAPI_BASE_URL } from './transport/media-upload.js';
export type { DingTalkTarget } from './transport/target.js';
export { DingTalkStreamCallbacks, type DingTalkStreamCallbacksOptions } from './interaction/stream-callbacks.js';
export { DingTalkHttpCallbacks, verifyDingTalkSignature, type DingTalkHttpCallbacksOptions } from './interaction/http-callbacks.js';
export type { DingTalkCallbackResponse } from './interaction/card-callback.js';
export type { ControlButton as DingTalkControlButton, ControlParams as DingTalkControlParams, ControlStyle as DingTalkControlStyle } from './render/controls.js';
