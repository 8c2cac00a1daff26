import { ChannelConfigError, FEATURE_SWITCHES_SHAPE, HttpUrlSchema, MAX_TIMER_MS, TIMING_OVERRIDES_SHAPE, z, type ChannelSettings } from '@progresscard/core/plugin';

/**
 * Discord's channel defaults. Discord says rate limits "should not be hard coded into your app"
 * (https://discord.com/developers/docs/topics/rate-limits): each route's bucket is learned from the
 * `X-RateLimit-*` headers of its answers (`AnnouncedLimits`); the only number here is the global
 * limit, "50 requests per second" per bot (same page, Global Rate Limit), as the channel's
 * `budget`. 1000 ms between two calls for one card and a tick of 3000 ms keep a card's edits
 * modest; text released at least every 1500 ms.
 */
export const DISCORD_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 50, intervalMs: 1000 }],
  perCardIntervalMs: 1000,
  debounceMs: 1500,
};

const BudgetWindowSchema = z.object({ limit: z.number().int().positive(), intervalMs: z.number().int().positive() }).strict();

/**
 * Config of `discord(config)`. Durations in ms.
 * - `botToken`: the bot token, sent as `Authorization: Bot <token>`.
 * - `channelId`: the channel (or thread) cards go to (a snowflake); a target given to `open()` overrides it.
 * - `apiUrl`: default `https://discord.com/api/v10` (an emulator's in tests).
 * - `probeBudget`: how fast a route is called before its first answer announced its bucket
 *   (default one call a second); from then on the announced limits pace it.
 * - feature switches, `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget` (the global limit), `verbosity`: as every channel.
 * - `requestTimeoutMs`: abort a call after this long (default 10000).
 * - `interactions`: card buttons. The plugin serves the Interactions Endpoint URL on `host:port` +
 *   `path` (default `/discord/interactions`; set the public URL in the Developer Portal) and
 *   verifies every request with the application's `publicKey` (Ed25519). Without it, open
 *   questions show the reply to type.
 * - `applicationId`: the application's id (a snowflake), not a secret. Stored with each card so that
 *   an app pool changed by a deploy continues a card on its message only through the bot that
 *   posted it. Default: the bot's user id read from the token's first part (base64 of the id,
 *   as Nostrum decodes it: https://kraigie.github.io/nostrum/Nostrum.Token.html; unconfirmed in Discord's own docs),
 *   which for a bot is its application's id; none when the token does not carry one.
 * - `fileRoots`: directories files attached with `card.attach(path)` may be read from and uploaded
 *   (a path must resolve, symlinks followed, inside one of them). Default none: the final card
 *   names the file as not uploaded and no file is read.
 */
export const DiscordConfigSchema = z
  .object({
    botToken: z.string().min(20, 'a bot token from the Developer Portal'),
    channelId: z.string().regex(/^\d{17,20}$/, 'a channel id (snowflake) such as 1250000000000000100'),
    apiUrl: HttpUrlSchema.default('https://discord.com/api/v10'),
    applicationId: z.string().regex(/^\d{17,20}$/, 'an application id (snowflake) such as 1250000000000000007').optional(),
    probeBudget: BudgetWindowSchema.default({ limit: 1, intervalMs: 1000 }),
    ...TIMING_OVERRIDES_SHAPE,
    ...FEATURE_SWITCHES_SHAPE,
    requestTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` }).default(10_000),
    interactions: z
      .object({
        publicKey: z.string().regex(/^[0-9a-fA-F]{64}$/, "the application's public key, 64 hex digits"),
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535),
        path: z.string().startsWith('/').default('/discord/interactions'),
      })
      .strict()
      .optional(),
    fileRoots: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** Config as written by the user. */
export type DiscordConfigInput = z.input<typeof DiscordConfigSchema>;
/** Config with defaults applied. */
export type DiscordConfig = z.output<typeof DiscordConfigSchema>;

/** Bad Discord config: names the field and value (the token is shown as `<hidden>`). */
export class DiscordConfigError extends ChannelConfigError {
  override readonly name = 'DiscordConfigError';
}

/**
 * The bot's id as its token carries it: a bot token's first part (before the first `.`) is the bot
 * user's id in base64 (as Nostrum decodes it: https://kraigie.github.io/nostrum/Nostrum.Token.html; unconfirmed in
 * Discord's own docs). Undefined when that part does not decode to a snowflake (e.g. an emulator's token).
 */
export function botIdFromToken(botToken: string): string | undefined {
  const first = botToken.split('.')[0] ?? '';
  const id = Buffer.from(first, 'base64').toString('latin1');
  return /^\d{17,20}$/.test(id) ? id : undefined;
}
