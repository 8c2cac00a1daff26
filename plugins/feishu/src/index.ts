/**
 * `@progresscard/plugin-feishu`: the Feishu/Lark channel. Build it with {@link feishu} and hand it
 * to `createProgressCards({ channels: [...] })`. Internals (renderer, guards, transport, error
 * classification) are not part of the public API.
 */
export { feishu, type FeishuPlugin, type FeishuPluginOptions } from './plugin.js';
export { FEISHU_ENV_VARIABLES } from './env.js';
export {
  FEISHU_DEFAULTS,
  FEISHU_CARDKIT_DEFAULTS,
  FEISHU_CARD_MODES,
  FeishuConfigSchema,
  FeishuCallbacksSchema,
  FeishuConfigError,
  type FeishuConfig,
  type FeishuConfigInput,
  type ReceiveIdType,
  type FeishuCardMode,
} from './config.js';
export type { FeishuCard } from './render/payload.js';
export type { FeishuTarget, FeishuSdkClient } from './transport/target.js';
export { FeishuHttpCallbacks, type FeishuHttpCallbacksOptions } from './interaction/http-callbacks.js';
export { FeishuLongConnectionCallbacks, FeishuLongConnectionError, type FeishuLongConnectionOptions } from './interaction/long-connection.js';
export type { FeishuCallbackResponse } from './interaction/card-action.js';
export type { ControlValue as FeishuControlValue, ControlStyle as FeishuControlStyle } from './render/controls.js';
