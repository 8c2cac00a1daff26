import { defineChannel, type DefinedChannel } from '@progresscard/core/plugin';
import { TELEGRAM_CHAT_BUDGETS, telegramBudgetKeys } from './budget-keys.js';
import { TELEGRAM_DEFAULTS, TelegramConfigError, TelegramConfigSchema, type TelegramConfig } from './config.js';
import { TELEGRAM_ENV_VARIABLES } from './env.js';
import { CallbackDataRegistry } from './interaction/callback-data.js';
import { TelegramWebhook } from './interaction/webhook.js';
import type { TelegramMessage } from './render/payload.js';
import { createTelegramRenderer } from './render/renderer.js';
import { TelegramTransport, isPrivateChat, type TelegramTarget } from './transport/transport.js';

/** The Telegram channel plugin: `config` is the validated config with the bot token and webhook secret `<hidden>`. */
export type TelegramPlugin = DefinedChannel<'telegram', TelegramMessage, TelegramTarget | number | string, TelegramConfig>;

/**
 * The Telegram channel: one HTML message per card, sent with `sendMessage` and edited with
 * `editMessageText` over the Bot API; in a private chat (a positive chat id) the answer streams as
 * a live draft (`sendMessageDraft`) below the card and is persisted with `sendMessage` when done;
 * in groups and forum topics the answer is in the card and continues in follow-up messages.
 * `telegram.fromEnv()` reads {@link TELEGRAM_ENV_VARIABLES} (`TELEGRAM_BOT_TOKEN`,
 * `TELEGRAM_CHAT_ID`, optionally `TELEGRAM_THREAD_ID`, `TELEGRAM_API_ROOT`, `TELEGRAM_WEBHOOK_SECRET`).
 *
 * ```ts
 * const cards = createProgressCards({ channels: [telegram({ botToken: '123456:ABC…', chatId: -1001234567890 })] });
 * ```
 * @throws TelegramConfigError naming the bad field and value (never the token).
 */
export const telegram = defineChannel({
  id: 'telegram',
  configSchema: TelegramConfigSchema,
  env: TELEGRAM_ENV_VARIABLES,
  secrets: ['botToken', 'webhook.secretToken'],
  defaults: TELEGRAM_DEFAULTS,
  credentials: 'the bot token (TELEGRAM_BOT_TOKEN)',
  // The bot's user id: the number before the colon of its token ("123456:ABC-DEF…",
  // https://core.telegram.org/bots/api#authorizing-your-bot), the same id getMe answers. Not a
  // secret on its own (it is the bot's id in every update); the part after the colon is, and is never stored.
  appIdentity: (config) => config.botToken.slice(0, config.botToken.indexOf(':')),
  configError: TelegramConfigError,
  budget: (config) => telegramBudgetKeys(config.botToken, config.chatId, { chat: config.chatBudget ?? TELEGRAM_CHAT_BUDGETS.chat, group: config.groupBudget ?? TELEGRAM_CHAT_BUDGETS.group }),
  create: ({ config, rendering }) => {
    const callbackData = new CallbackDataRegistry();
    const endpoint = { apiRoot: config.apiRoot, botToken: config.botToken, requestTimeoutMs: config.requestTimeoutMs };
    const renderer = createTelegramRenderer({
      ...rendering,
      controls: config.webhook ? 'buttons' : 'text',
      answerAsDraft: config.drafts && isPrivateChat(config.chatId),
      callbackData,
    });
    return {
      renderer,
      transport: new TelegramTransport({ ...endpoint, chatId: config.chatId, threadId: config.threadId, drafts: config.drafts, fileRoots: config.fileRoots }),
      ...(config.webhook ? { interaction: new TelegramWebhook({ ...config.webhook, endpoint, callbackData }) } : {}),
    };
  },
});
