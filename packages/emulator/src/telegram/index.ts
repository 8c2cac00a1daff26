// Only Telegram-prefixed names leave this folder, so `export *` next to the other platforms cannot clash.
export { TELEGRAM_ROUTES, TELEGRAM_ROUTE_NAMES, TelegramErrors, type TelegramRoute, type TelegramError } from './codes.js';
export { DEFAULT_TELEGRAM_LIMITS, type TelegramLimits } from './limits.js';
export { TELEGRAM_MESSAGE_TRANSITIONS, type TelegramMessageState, type TelegramChat, type StoredTelegramDraft as TelegramDraft, type TelegramDocument } from './chats.js';
export { parseTelegramHtml as telegramVisibleText } from './html.js';
export * from './emulator.js';
export { TELEGRAM_CALLBACK_ROUTE, type TelegramClick, type TelegramClickResult, type TelegramWebhookConfig } from './callbacks.js';
