import type { EnvVariable } from '@progresscard/core/plugin';
import type { TelegramConfigInput } from './config.js';

/** Port of the webhook when `TELEGRAM_WEBHOOK_SECRET` turns buttons on (8443 is one of the ports Telegram delivers to). */
export const TELEGRAM_WEBHOOK_PORT = 8443;

/**
 * The environment variables `telegram.fromEnv()` reads, in order. Required: `TELEGRAM_BOT_TOKEN`
 * and `TELEGRAM_CHAT_ID`; optional: `TELEGRAM_THREAD_ID` (a forum topic), `TELEGRAM_API_ROOT` (an
 * emulator's root) and `TELEGRAM_WEBHOOK_SECRET` (card buttons: the webhook is served on
 * {@link TELEGRAM_WEBHOOK_PORT}; give `webhook` in the overrides for another port).
 */
export const TELEGRAM_ENV_VARIABLES: readonly EnvVariable<TelegramConfigInput>[] = [
  { name: 'TELEGRAM_BOT_TOKEN', field: 'botToken', required: true, secret: true, hint: 'the token from @BotFather, 123456:ABC…' },
  { name: 'TELEGRAM_CHAT_ID', field: 'chatId', required: true, hint: 'the chat cards go to: a user id (private chat) or -100… (supergroup)' },
  { name: 'TELEGRAM_THREAD_ID', field: 'threadId', required: false, hint: 'a forum topic (message_thread_id)', toValue: (text) => (/^\d+$/.test(text) ? Number(text) : text) },
  { name: 'TELEGRAM_API_ROOT', field: 'apiRoot', required: false, hint: 'the Bot API root, default https://api.telegram.org' },
  {
    name: 'TELEGRAM_WEBHOOK_SECRET',
    field: 'webhook',
    required: false,
    secret: true,
    hint: `the webhook's secret_token: turns card buttons on (the webhook is served on port ${TELEGRAM_WEBHOOK_PORT} at /telegram/webhook)`,
    toValue: (secretToken) => ({ secretToken, port: TELEGRAM_WEBHOOK_PORT }),
  },
];
