import { ChannelConfigError, MAX_TIMER_MS, FEATURE_SWITCHES_SHAPE, HttpUrlSchema, TIMING_OVERRIDES_SHAPE, type ChannelSettings } from '@progresscard/core/plugin';
import { z } from 'zod';

/** receive_id_type values of `im.v1.message.create` (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create). */
const RECEIVE_ID_TYPES = ['chat_id', 'open_id', 'user_id', 'union_id', 'email'] as const;
/** One of {@link RECEIVE_ID_TYPES}. */
export type ReceiveIdType = (typeof RECEIVE_ID_TYPES)[number];

/** How cards reach Feishu: patched card messages, or CardKit card entities with a streamed answer (the default). */
export const FEISHU_CARD_MODES = ['message', 'cardkit'] as const;
/** One of {@link FEISHU_CARD_MODES}. */
export type FeishuCardMode = (typeof FEISHU_CARD_MODES)[number];

/**
 * Feishu's channel defaults: tick 3000 ms; budget 50 calls/s and 1000/min per app and API route, so
 * once for create, once for reply and once for patch (message/create, message/patch docs:
 * https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create), paced
 * to 16.3 calls/s each; 5/s per receiving chat and per message on top (see `feishuBudgetKeys`);
 * 250 ms between two calls for one card (5 updates/s per message, code 230020); text released to
 * the card at least every 2500 ms.
 */
export const FEISHU_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [
    { limit: 50, intervalMs: 1000 },
    { limit: 1000, intervalMs: 60_000 },
  ],
  perCardIntervalMs: 250,
  debounceMs: 2500,
};

/**
 * Card callbacks (the `card.action.trigger` callback,
 * https://open.feishu.cn/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/card-callback-communication):
 * - `long-connection`: the official SDK's `WSClient` (no public URL needed; self-built apps only;
 *   choose "use long connection" under Events & Callbacks → Callback Configuration,
 *   https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/event-subscription-guide/callback-subscription/configure-callback-request-address).
 * - `http`: an HTTP endpoint the plugin serves on `host:port` + `path` (default
 *   `/feishu/card-callback`), registered as the callback request URL
 *   (https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/event-subscription-guide/callback-subscription/step-1-choose-a-subscription-mode/send-callbacks-to-developers-server).
 *   `verificationToken` checks `header.token`; `encryptKey` checks `X-Lark-Signature` and decrypts `encrypt` bodies.
 */
export const FeishuCallbacksSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('long-connection') }).strict(),
  z
    .object({
      mode: z.literal('http'),
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65_535),
      path: z.string().startsWith('/').default('/feishu/card-callback'),
      verificationToken: z.string().min(1).optional(),
      encryptKey: z.string().min(1).optional(),
    })
    .strict(),
]);

/**
 * Defaults of `mode: 'cardkit'`: the CardKit routes have the same per-app budget, 50 calls/s and
 * 1000/min (https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/update); one card
 * entity takes at most 10 operations/s
 * (https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview),
 * and one update may take up to three (reopening an expired stream), so 250 ms between two updates
 * of a card stays under it most of the time and the rare burst is answered as a card rate limit.
 * Text is released every 1000 ms: the client types each new piece out.
 */
export const FEISHU_CARDKIT_DEFAULTS: ChannelSettings = {
  ...FEISHU_DEFAULTS,
  debounceMs: 1000,
};

/** The Open Platform names `domain` takes besides a base URL. */
const FEISHU_DOMAIN_NAMES: readonly string[] = ['feishu', 'lark'];
const FEISHU_DOMAIN_EXPECTED = 'expected feishu (open.feishu.cn, the default), lark (open.larksuite.com) or an http(s) base URL such as http://127.0.0.1:3000';

/**
 * `domain`: `feishu`, `lark` or an http(s) base URL. Anything else is refused listing the three
 * (a bare host such as `open.feishu.cn` or `larksuite` included); a URL that carries a user name
 * or password is refused as {@link HttpUrlSchema} says.
 */
const FeishuDomainSchema = z
  .string({ error: FEISHU_DOMAIN_EXPECTED })
  .refine((value) => FEISHU_DOMAIN_NAMES.includes(value) || /^https?:\/\//i.test(value), FEISHU_DOMAIN_EXPECTED)
  .pipe(z.union([z.enum(['feishu', 'lark']), HttpUrlSchema]));

/**
 * Config of `feishu(config)`. Durations in ms.
 * - `domain`: `feishu` (open.feishu.cn, default), `lark` (open.larksuite.com) or a base URL such as
 *   the emulator's `http://127.0.0.1:PORT` (no trailing slash needed).
 * - `receiveIdType` + `receiveId`: where cards go (a chat by default); a target given to `open()` overrides them.
 * - `replyToMessageId` / `replyInThread`: send cards as replies to a message (in its thread).
 * - feature switches (the core kit's, also from `FEISHU_CARD_*` variables, which win): `progressive`,
 *   `footerStyle`, `footerFields`, `toolFoldAfter` (default 3), `cardPer`, `locale` (default: the run's, else the channel's),
 *   `completionPing`, `runCallCap`, `monthlyQuota`; see `resolveFeatureSwitches`.
 * - `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget`: override the channel defaults (the core's timing schema).
 * - `verbosity`: `quiet` | `compact` | `detailed`, or `{ direct?, group? }`: how much the cards show (default `detailed`).
 * - `requestTimeoutMs`: abort a platform call after this long (default 10000).
 * - `overflow`: an answer too long for one card continues in follow-up cards (default) or is only cut.
 * - `callbacks`: how card button clicks come back (see {@link FeishuCallbacksSchema}); without it,
 *   open questions show the text reply to type instead of buttons.
 * - `mode`: `cardkit` (default) creates a CardKit card entity in streaming mode, sends it by
 *   reference and types the answer out with element-content updates
 *   (https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview);
 *   it needs the app permission `cardkit:card:write` and Feishu clients 7.20+. Without the permission
 *   (code 99991672) the channel falls back to `message` for the rest of the process, with one warning.
 *   `message` sends a card message and patches it (`im.v1.message.patch`).
 * - `workingReaction`: opt-in; `true` (the `Typing` emoji) or a Feishu emoji type (`OnIt`, case-sensitive,
 *   https://open.feishu.cn/document/server-docs/im-v1/message-reaction/emojis-introduce): the bot's own
 *   card message carries that reaction while the run goes on and loses it at the final, on every
 *   message of the card when the final moved to a fresh one (never the user's message). Needs the app permission `im:message.reactions:write_only`. Default off.
 * - `imageRoots`: directories local image paths (an answer's `![alt](./chart.png)`, a tool result's
 *   `images: [{ path }]`) may be read from and uploaded; a path must resolve, symlinks followed,
 *   inside one of them. Default none: local paths show as `[image: alt]` and no file is read.
 */
export const FeishuConfigSchema = z
  .object({
    appId: z.string().min(1),
    appSecret: z.string().min(1),
    domain: FeishuDomainSchema.default('feishu'),
    receiveIdType: z.enum(RECEIVE_ID_TYPES).default('chat_id'),
    receiveId: z.string().min(1).optional(),
    replyToMessageId: z.string().min(1).optional(),
    replyInThread: z.boolean().default(false),
    timeZone: z
      .string()
      .min(1)
      .refine((zone) => isTimeZone(zone), 'not an IANA time zone')
      .optional(),
    ...TIMING_OVERRIDES_SHAPE,
    ...FEATURE_SWITCHES_SHAPE,
    requestTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` }).default(10_000),
    overflow: z.enum(['follow-up', 'truncate']).default('follow-up'),
    callbacks: FeishuCallbacksSchema.optional(),
    mode: z.enum(FEISHU_CARD_MODES).default('cardkit'),
    workingReaction: z
      .union([z.boolean(), z.string().regex(/^[A-Za-z0-9_]+$/, 'expected a Feishu emoji type such as Typing or OnIt')])
      .default(false)
      .transform((value) => (value === true ? 'Typing' : value)),
    imageRoots: z.array(z.string().min(1)).default([]),
  })
  .strict();

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Config as written by the user. */
export type FeishuConfigInput = z.input<typeof FeishuConfigSchema>;
/** Config with defaults applied. */
export type FeishuConfig = z.output<typeof FeishuConfigSchema>;

/**
 * Bad Feishu config: the message names the field and the value (secrets and unknown fields are
 * shown as `<hidden>`), e.g. `feishu receiveIdType = "chat" (Invalid option: …)`.
 */
export class FeishuConfigError extends ChannelConfigError {
  override readonly name = 'FeishuConfigError';
}

/**
 * API calls a month all custom apps of a tenant on Feishu's Basic (free) plan may make together:
 * 1 000 000 from June 2026, reset on the 1st of each month (the notice covers the Basic plan only)
 * (https://open.feishu.cn/document/platform-notices/platform-updates-/custom-app-api-call-limit).
 * For `monthlyQuota` on that plan (the quota is tenant-wide: give each app its share).
 */
export const FEISHU_BASIC_PLAN_MONTHLY_CALLS = 1_000_000;
