import { DEFAULT_TELEGRAM_BOT, startTelegramEmulator, type TelegramEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { TELEGRAM_ENV_VARIABLES, TelegramConfigError, telegram, telegramMessageProblems, type TelegramMessage, type TelegramPlugin, type TelegramWebhook } from '@progresscard/plugin-telegram';
import { CliUsageError } from '../errors.js';
import { renderTelegramMessage, telegramCardState } from '../preview/render-telegram.js';
import type { ChannelDescriptor } from './descriptor.js';
import { postJson, stringsIn } from './doctor-support.js';

/** The webhook secret of the emulated channel (the emulator sends it with every update). */
const EMULATED_SECRET = 'progresscard-emulator-webhook-secret';

/**
 * Telegram: HTML messages sent and edited over the Bot API. The emulated channel posts into the
 * emulator's forum topic (post-and-edit); private chats stream the answer as drafts
 * (`TELEGRAM_CHAT_ID` = a user id with `--real`).
 */
export const telegramChannel: ChannelDescriptor<'telegram', TelegramEmulator> = {
  id: 'telegram',
  label: 'Telegram',
  emulated: {
    start: (port) => startTelegramEmulator({ port }),
    plugin: (emulator, settings) =>
      withEmulatorWebhook(
        telegram(
          {
            botToken: DEFAULT_TELEGRAM_BOT.botToken,
            chatId: DEFAULT_TELEGRAM_BOT.groupChat,
            threadId: DEFAULT_TELEGRAM_BOT.topic,
            // the golden payloads render with a stand-in that has only a baseUrl
            apiRoot: emulator.apiRoot ?? emulator.baseUrl,
            tickMs: settings.tickMs,
            ...(settings.locale ? { locale: settings.locale } : {}),
            webhook: { secretToken: EMULATED_SECRET, port: 0 },
          },
          { env: settings.switchEnv ?? {} },
        ),
        emulator,
      ),
    env: (emulator) => {
      const values: Record<string, string> = { botToken: DEFAULT_TELEGRAM_BOT.botToken, chatId: String(DEFAULT_TELEGRAM_BOT.groupChat), threadId: String(DEFAULT_TELEGRAM_BOT.topic), apiRoot: emulator.apiRoot };
      return TELEGRAM_ENV_VARIABLES.filter((variable) => values[variable.field] !== undefined).map((variable) => ({ name: variable.name, value: values[variable.field]! }));
    },
    pluginHint: (emulator) => `telegram({ …, apiRoot: '${emulator.apiRoot}' })`,
  },
  real: {
    requiredEnv: TELEGRAM_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { TELEGRAM_BOT_TOKEN: DEFAULT_TELEGRAM_BOT.botToken, TELEGRAM_CHAT_ID: String(DEFAULT_TELEGRAM_BOT.groupChat) },
    variables: TELEGRAM_ENV_VARIABLES,
    optionalEnv: TELEGRAM_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return telegram.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env: settings.switchEnv ?? env });
      } catch (error) {
        throw error instanceof TelegramConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: [
        'set TELEGRAM_WEBHOOK_SECRET (1–256 of A-Z a-z 0-9 _ -): the webhook is served on port 8443 at /telegram/webhook',
        'register it: setWebhook { url: <the public HTTPS URL in front of that port>, secret_token: <the same secret> }',
      ],
      listening: 'the webhook is listening (updates are checked with the secret token)',
      caveats: ['doctor does not call getWebhookInfo: if the bot\'s webhook does not point here, presses show a spinner and nothing arrives'],
    },
    /** `getMe` says whether the bot token is valid (https://core.telegram.org/bots/api#getme). */
    checkCredentials: async (env) => {
      const root = (env.TELEGRAM_API_ROOT?.trim() || 'https://api.telegram.org').replace(/\/+$/, '');
      const { json } = await postJson(`${root}/bot${env.TELEGRAM_BOT_TOKEN?.trim() ?? ''}/getMe`, {});
      if (json.ok !== true) throw new Error(`Telegram refused the bot token: ${String(json.error_code ?? '')} ${String(json.description ?? 'no answer')}`.trim());
    },
    payloadProblems: (payload) => {
      const message = payload as Partial<TelegramMessage> | null;
      if (!message || typeof message !== 'object') return ['the payload is not an object'];
      return typeof message.text === 'string' && message.text !== '' ? [] : ['no text'];
    },
    limitProblems: (payload) => telegramMessageProblems(payload as TelegramMessage),
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) => {
      const messages = emulator.messages().filter((m) => m.state !== 'deleted');
      const lastOfChat = new Map(messages.map((m) => [m.chatId, m.messageId]));
      return messages.map((m) => {
        const draft = lastOfChat.get(m.chatId) === m.messageId ? emulator.drafts(m.chatId).at(-1) : undefined;
        return {
          id: `${m.chatId}:${m.messageId}`,
          revision: `${m.edits}:${m.state}:${draft?.updates ?? 0}`,
          state: telegramCardState(m.text),
          createdAt: m.createdAt,
          updatedAt: Math.max(m.updatedAt, draft?.updatedAt ?? 0),
          version: m.edits,
          render: () => renderTelegramMessage(m.text, m.replyMarkup, draft?.text),
        };
      });
    },
    calls: (emulator) => emulator.calls().map((call) => ({ ...call, code: call.outcome === 'accepted' ? 0 : (call.msg ?? call.code) })),
    isTokenRoute: (route) => route === 'getMe',
    /** HTTP 429 "Too Many Requests: retry after N" (https://core.telegram.org/bots/api#making-requests). */
    isRateLimited: (call) => call.status === 429,
    finalPayload: (emulator, messageId) => {
      // by a preview card id (`<chat>:<message>`) or by the card's message id
      const held = emulator.messages().find((m) => `${m.chatId}:${m.messageId}` === messageId || String(m.messageId) === messageId);
      return held ? { text: held.source, ...(held.replyMarkup ? { reply_markup: held.replyMarkup } : {}) } : undefined;
    },
    async click(emulator, click) {
      const [chatId, messageId] = click.cardId.split(':').map(Number);
      const result = await emulator.click({ chatId: chatId!, messageId: messageId!, button: click.button, userId: /^\d+$/.test(click.user) ? Number(click.user) : 4242, userName: click.user });
      return { ok: result.error === undefined, message: result.error ?? String(result.answer?.text ?? '') };
    },
  },
};

/** The plugin with its webhook registered with the emulator once it listens. */
function withEmulatorWebhook(plugin: TelegramPlugin, emulator: TelegramEmulator): TelegramPlugin {
  const server = plugin.interaction as TelegramWebhook;
  return {
    ...plugin,
    interaction: {
      async start(onClick) {
        await server.start(onClick);
        emulator.setWebhook({ url: server.url!, secretToken: EMULATED_SECRET });
      },
      stop: () => server.stop(),
    },
  };
}
