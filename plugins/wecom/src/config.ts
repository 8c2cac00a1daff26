import { ChannelConfigError, FEATURE_SWITCHES_SHAPE, MAX_TIMER_MS, TIMING_OVERRIDES_SHAPE, z, type ChannelSettings } from '@progresscard/core/plugin';

/**
 * WeCom's channel defaults. The card is pulled, not pushed: WeCom polls each stream about once a
 * second (cadence UNCONFIRMED; https://developer.work.weixin.qq.com/document/path/100719 gives no
 * rate), so a card's state changes at most once a poll (`perCardIntervalMs` 1000) and the budget
 * is not the platform's limit (writing the state costs no API call) but a ceiling on renders;
 * elapsed times re-render every 2000 ms; text released at least every 1000 ms.
 */
export const WECOM_DEFAULTS: ChannelSettings = {
  tickMs: 2000,
  budget: [{ limit: 100, intervalMs: 1000 }],
  perCardIntervalMs: 1000,
  debounceMs: 1000,
};

/** WeCom stops polling a stream 6 minutes after the user's message (document 100719, 流程说明). */
export const WECOM_STREAM_WINDOW_MS = 6 * 60_000;

const duration = () => z.number().int().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` });

/**
 * Config of `wecom(config)`, the AI bot (智能机器人) in callback mode. Durations in ms.
 * - `token`, `encodingAESKey`: the bot's callback Token and 43-character EncodingAESKey (the
 *   console's API receive settings); every callback is checked and decrypted with them.
 * - `botId`: the bot's id (`aibotid`); when given, callbacks for another bot are refused.
 * - `host`, `port`, `path`: where the callback URL is served (default `127.0.0.1`, `/wecom/callback`).
 * - `streamWindowMs`: how long after the user's message the stream still refreshes (default 6 min
 *   minus 30 s, the margin of the official plugin `@wecom/wecom-openclaw-plugin`); after it the stream
 *   finishes with the latest state and the final follows through `response_url`.
 * - `pollGoneAfterMs`: no poll for this long means WeCom dropped the stream (default 15 000).
 * - `responseUrlTtlMs`: a `response_url` is valid 1 hour (document 101138).
 * - `replayWindowMs`: callbacks whose timestamp is further from now are refused, and a signature is
 *   remembered this long so a replay is refused (default 300 000; WeCom documents no window).
 * - `requestTimeoutMs`: abort a `response_url` post after this long (default 10 000).
 * - feature switches, `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget`, `verbosity`: as every channel.
 */
export const WeComConfigSchema = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9]{1,32}$/, 'the callback Token: 1–32 letters or digits'),
    encodingAESKey: z.string().regex(/^[A-Za-z0-9+/]{43}$/, 'the EncodingAESKey: 43 letters, digits, + or /'),
    botId: z.string().min(1).optional(),
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(0),
    path: z.string().startsWith('/').default('/wecom/callback'),
    streamWindowMs: duration().default(WECOM_STREAM_WINDOW_MS - 30_000),
    pollGoneAfterMs: duration().default(15_000),
    responseUrlTtlMs: duration().default(60 * 60_000),
    replayWindowMs: duration().default(300_000),
    requestTimeoutMs: duration().default(10_000),
    ...TIMING_OVERRIDES_SHAPE,
    ...FEATURE_SWITCHES_SHAPE,
  })
  .strict();

/** Config as written by the user. */
export type WeComConfigInput = z.input<typeof WeComConfigSchema>;
/** Config with defaults applied. */
export type WeComConfig = z.output<typeof WeComConfigSchema>;

/** Bad WeCom config: names the field and value (the token and key are shown as `<hidden>`). */
export class WeComConfigError extends ChannelConfigError {
  override readonly name = 'WeComConfigError';
}
