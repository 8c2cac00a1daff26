/**
 * `@progresscard/plugin-telegram`: the Telegram channel. Build it with {@link telegram} and hand it
 * to `createProgressCards({ channels: [...] })`. Renderer, guards and transport are internal.
 */
export { telegram, type TelegramPlugin } from './plugin.js';
export { TELEGRAM_ENV_VARIABLES, TELEGRAM_WEBHOOK_PORT } from './env.js';
export { TELEGRAM_CHAT_BUDGETS, type TelegramChatBudgets } from './budget-keys.js';
export { TELEGRAM_DEFAULTS, TelegramConfigSchema, TelegramConfigError, type TelegramConfig, type TelegramConfigInput } from './config.js';
export type { TelegramMessage, TelegramButton } from './render/payload.js';
export type { TelegramTarget } from './transport/transport.js';
export { TELEGRAM_ERROR_KINDS } from './transport/classify.js';
export { telegramMessageProblems } from './render/guards.js';
export { TelegramWebhook, type TelegramWebhookOptions } from './interaction/webhook.js';
