import { ChannelConfigError, FEATURE_SWITCHES_SHAPE, HttpUrlSchema, MAX_TIMER_MS, TIMING_OVERRIDES_SHAPE, z, type ChannelSettings } from '@progresscard/core/plugin';


/**
 * Telegram's channel defaults: tick 3000 ms; the bot's budget of 30 messages a second across chats
 * ("no more than 30 messages per second", https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this;
 * the per-chat second and the group's 20 a minute are budget keys of their own); 1000 ms between
 * two calls for one card (one message a second per chat, same FAQ); text released at least every 1500 ms.
 */
export const TELEGRAM_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 30, intervalMs: 1000 }],
  perCardIntervalMs: 1000,
  debounceMs: 1500,
};

const BudgetWindowSchema = z.object({ limit: z.number().int().positive(), intervalMs: z.number().int().positive() }).strict();

/** What a chat id looks like, for the error of a value that is none. */
const CHAT_ID_EXPECTED = 'expected a number such as -1001234567890 (a group or channel) or 4242 (a user, for a private chat), or @channelname';

/**
 * A chat id: a number, or `@channelusername`, or digits with a leading minus as text (environment
 * variables). Anything else is refused with {@link CHAT_ID_EXPECTED} (a bare union would say only
 * "Invalid input").
 */
const ChatIdSchema = z.union(
  [z.number().int().refine((n) => n !== 0, 'a chat id is not 0'), z.string().regex(/^(-?\d+|@\w{4,})$/).transform((s) => (/^-?\d+$/.test(s) ? Number(s) : s))],
  { error: (issue) => (issue.code === 'invalid_union' ? CHAT_ID_EXPECTED : undefined) },
);

/**
 * Config of `telegram(config)`. Durations in ms.
 * - `botToken`: the token from @BotFather (`123456:ABC…`), part of every method URL.
 * - `chatId`: the chat cards go to (a user's id for a private chat, `-100…` for a supergroup); a
 *   target given to `open()` overrides it. `threadId`: a forum topic (`message_thread_id`).
 * - `apiRoot`: default `https://api.telegram.org` (an emulator's in tests).
 * - `drafts`: in private chats, stream the answer as a live draft (`sendMessageDraft`) and persist
 *   it when done (default true; Bot API 9.5+). Off: the answer is in the card message, as in groups.
 * - `chatBudget`, `groupBudget`: the windows of one chat (default one call a second) and of one
 *   group (default 20 a minute); Telegram's limits are "flexible" and may be lower for a bot.
 * - feature switches, `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget`, `verbosity`: as every channel.
 * - `requestTimeoutMs`: abort a call after this long (default 10000).
 * - `webhook`: card buttons. The plugin serves the webhook on `host:port` + `path` (default
 *   `/telegram/webhook`; register the public URL with `setWebhook { url, secret_token }`) and
 *   refuses every update whose `X-Telegram-Bot-Api-Secret-Token` is not `secretToken`
 *   (https://core.telegram.org/bots/api#setwebhook). Without it, open questions show the reply to type.
 * - `fileRoots`: directories files attached with `card.attach(path)` may be read from and sent as
 *   documents (a path must resolve, symlinks followed, inside one of them). Default none: the
 *   final card names the file as not uploaded and no file is read.
 */
export const TelegramConfigSchema = z
  .object({
    botToken: z.string().regex(/^\d+:[\w-]{20,}$/, 'a bot token such as 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11'),
    chatId: ChatIdSchema,
    threadId: z.number().int().positive().optional(),
    apiRoot: HttpUrlSchema.default('https://api.telegram.org'),
    drafts: z.boolean().default(true),
    chatBudget: z.array(BudgetWindowSchema).min(1).optional(),
    groupBudget: z.array(BudgetWindowSchema).min(1).optional(),
    ...TIMING_OVERRIDES_SHAPE,
    ...FEATURE_SWITCHES_SHAPE,
    requestTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` }).default(10_000),
    webhook: z
      .object({
        /** 1–256 characters of A-Z, a-z, 0-9, `_` and `-` (https://core.telegram.org/bots/api#setwebhook). */
        secretToken: z.string().regex(/^[\w-]{1,256}$/, '1–256 characters of A-Z, a-z, 0-9, _ and -'),
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535),
        path: z.string().startsWith('/').default('/telegram/webhook'),
      })
      .strict()
      .optional(),
    fileRoots: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** Config as written by the user. */
export type TelegramConfigInput = z.input<typeof TelegramConfigSchema>;
/** Config with defaults applied. */
export type TelegramConfig = z.output<typeof TelegramConfigSchema>;

/** Bad Telegram config: names the field and value (the token and secret are shown as `<hidden>`). */
export class TelegramConfigError extends ChannelConfigError {
  override readonly name = 'TelegramConfigError';
}
