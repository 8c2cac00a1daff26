/**
 * `@progresscard/plugin-feishu`: the Feishu/Lark channel. Build it with {@link feishu} and hand it
 * to `createProgressCards({ channels: [...] })`. Internals (renderer, guards, transport, error
 * classification) are not part of the public API.
 */
export { feishu, type FeishuPlugin, type FeishuPluginOptions, type FeishuFromEnvOptions } from './plugin.js';
export { FEISHU_ENV_VARIABLES } from './env.js';
export {
  FEISHU_DEFAULTS,
  FEISHU_CARDKIT_DEFAULTS,
  FEISHU_CARD_MODES,
  FeishuConfigSchema,
  FeishuConfigError,
  type FeishuConfig,
  type FeishuConfigInput,
  type ReceiveIdType,
  type FeishuCardMode,
} from './config.js';
export type { FeishuCard } from './render/card-types.js';
export type { FeishuTarget } from './transport/transport.js';
