import { configFromEnv, parseTimingOverrides, resolveFeatureSwitches, withEnvNames, type ChannelPlugin, type EnvSource } from '@progresscard/core';
import { TELEGRAM_CHAT_BUDGETS, telegramBudgetKeys } from './budget-keys.js';
import { TELEGRAM_DEFAULTS, TelegramConfigError, TelegramConfigSchema, parseTelegramConfig, type TelegramConfig, type TelegramConfigInput } from './config.js';
import { TELEGRAM_ENV_VARIABLES } from './env.js';
import { CallbackDataRegistry } from './interaction/callback-data.js';
import { TelegramWebhook } from './interaction/webhook.js';
import type { TelegramMessage } from './render/payload.js';
import { createTelegramRenderer } from './render/renderer.js';
import { TelegramTransport, isPrivateChat, type TelegramTarget } from './transport/transport.js';

/** The Telegram channel plugin. */
export interface TelegramPlugin extends ChannelPlugin<TelegramMessage, TelegramTarget | number | string> {
  readonly id: 'telegram';
  /** The validated config without the bot token (and with the webhook secret hidden). */
  readonly config: Readonly<Omit<TelegramConfig, 'botToken'>>;
}

/** Options of {@link telegram} that are not config. */
export interface TelegramPluginOptions {
  /** Read for the feature switch variables `TELEGRAM_CARD_*` (default `process.env`). */
  readonly env?: EnvSource;
}

/**
 * The Telegram channel: one HTML message per card, sent with `sendMessage` and edited with
 * `editMessageText` over the Bot API; in a private chat (a positive chat id) the answer streams as
 * a live draft (`sendMessageDraft`) below the card and is persisted with `sendMessage` when done;
 * in groups and forum topics the answer is in the card and continues in follow-up messages.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [telegram({ botToken: '123456:ABC…', chatId: -1001234567890 })] });
 * ```
 * @throws TelegramConfigError naming the bad field and value (never the token).
 */
export function telegram(config: TelegramConfigInput, options: TelegramPluginOptions = {}): TelegramPlugin {
  const parsed = parseTelegramConfig(config);
  const { botToken: _token, webhook, ...rest } = parsed;
  const visible = webhook ? { ...rest, webhook: { ...webhook, secretToken: '<hidden>' } } : rest;
  const switches = resolveFeatureSwitches('telegram', parsed, { env: options.env, error: (...args) => new TelegramConfigError(...args) });
  const callbackData = new CallbackDataRegistry();
  const endpoint = { apiRoot: parsed.apiRoot, botToken: parsed.botToken, requestTimeoutMs: parsed.requestTimeoutMs };
  const renderer = createTelegramRenderer({
    locale: switches.locale,
    footerStyle: switches.footerStyle,
    footerFields: switches.footerFields,
    toolFoldAfter: switches.toolFoldAfter,
    controls: webhook ? 'buttons' : 'text',
    answerAsDraft: parsed.drafts && isPrivateChat(parsed.chatId),
    callbackData,
  });
  return {
    id: 'telegram',
    configSchema: TelegramConfigSchema,
    defaults: TELEGRAM_DEFAULTS,
    overrides: parseTimingOverrides('telegram', parsed),
    switches,
    config: Object.freeze(visible),
    renderer,
    budgetKeys: telegramBudgetKeys(parsed.botToken, parsed.chatId, { chat: parsed.chatBudget ?? TELEGRAM_CHAT_BUDGETS.chat, group: parsed.groupBudget ?? TELEGRAM_CHAT_BUDGETS.group }),
    transport: new TelegramTransport({ ...endpoint, chatId: parsed.chatId, threadId: parsed.threadId, drafts: parsed.drafts }),
    ...(webhook ? { interaction: new TelegramWebhook({ ...webhook, endpoint, callbackData }) } : {}),
  };
}

/**
 * The Telegram channel configured from the environment ({@link TELEGRAM_ENV_VARIABLES}):
 * `TELEGRAM_BOT_TOKEN`, `TELEGRAM_CHAT_ID`, optionally `TELEGRAM_THREAD_ID`, `TELEGRAM_API_ROOT`
 * and `TELEGRAM_WEBHOOK_SECRET`. `overrides` win over the environment.
 * @throws MissingEnvError naming every required variable that is unset or empty.
 * @throws TelegramConfigError naming the bad field, the variable it came from and its value (never the token).
 */
telegram.fromEnv = function fromEnv(overrides: Partial<TelegramConfigInput> = {}, options: TelegramPluginOptions = {}): TelegramPlugin {
  const { env = process.env } = options;
  const config = configFromEnv('telegram', TELEGRAM_ENV_VARIABLES, env, overrides);
  return withEnvNames(TELEGRAM_ENV_VARIABLES, overrides, () => telegram(config as TelegramConfigInput, options));
};
