/**
 * `@progresscard/plugin-wecom`: the WeCom (企业微信) AI bot channel, callback mode. Build it with
 * {@link wecom}, hand it to `createProgressCards({ channels: [...] })`, and serve its callback URL
 * with {@link wecomCallbacks}. Renderer and transport are internal.
 */
export { wecom, wecomCallbacks, type WeComPlugin, type WeComOptions } from './plugin.js';
export { WECOM_ENV_VARIABLES } from './env.js';
export { WECOM_DEFAULTS, WECOM_STREAM_WINDOW_MS, WeComConfigSchema, WeComConfigError, type WeComConfig, type WeComConfigInput } from './config.js';
export type { WeComPayload, WeComTemplateCard } from './render/payload.js';
export type { WeComTarget } from './transport/transport.js';
export type { FetchLike } from './transport/response-url.js';
export { WECOM_ERROR_KINDS } from './transport/classify.js';
export { WeComCallbacks, type WeComInboundMessage, type CallbackRequest, type CallbackAnswer } from './interaction/callbacks.js';
export type { CallbackQuery } from './interaction/envelope.js';
