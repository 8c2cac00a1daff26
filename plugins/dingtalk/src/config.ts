import { ChannelConfigError, FEATURE_SWITCHES_SHAPE, HttpUrlSchema, TIMING_OVERRIDES_SHAPE, type ChannelSettings } from '@progresscard/core/plugin';
import { z } from 'zod';
import { DingTalkTargetSchema } from './transport/target.js';

/** Default API host of the new-style DingTalk Open API. */
export const DINGTALK_API_BASE_URL = 'https://api.dingtalk.com';

/**
 * A standard organisation's metered API calls a month (token calls exempt; over it every metered
 * call fails with 403 `Forbidden.AccessDenied.ApiCountLimitForOrg` until the month ends):
 * https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server.
 * The plugin's `monthlyQuota` unless the config or `DINGTALK_CARD_MONTHLY_QUOTA` says otherwise
 * (paid editions have more); the debug footer shows a final card's calls against it.
 */
export const DINGTALK_MONTHLY_QUOTA = 5000;

/**
 * DingTalk channel defaults (ms):
 * - `tickMs` 3000: running tools' elapsed times refresh every 3 s (env `DINGTALK_CARD_TOOL_TICK_MS`, applied by the core);
 * - `budget` 20 calls per second per API of the app (createAndDeliver and card update each): the
 *   documented limit is 20 QPS per app per API
 *   (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server),
 *   paced to a steady 19 calls/s per API (see `dingtalkBudgetKeys`);
 * - `perCardIntervalMs` 500: one card updates at most twice a second (clients that work use 500–1500 ms);
 * - `debounceMs` 2500: streamed text is released to the card at least this often.
 */
export const DINGTALK_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 20, intervalMs: 1000 }],
  perCardIntervalMs: 500,
  debounceMs: 2500,
};

const positiveInt = z.number().int().positive();

/**
 * Names of the card template's variables the plugin fills. Defaults fit DingTalk's official "AI
 * Markdown card" template (`382e4302-551d-4880-bf29-a30acfab2e71.schema`, dingtalk-stream-sdk-python
 * `card_instance.py`): `msgTitle`, `msgContent` (markdown) and `flowStatus` (AI-card state).
 */
const TemplateKeysSchema = z.object({
  title: z.string().min(1).max(100).default('msgTitle'),
  content: z.string().min(1).max(100).default('msgContent'),
  flowStatus: z.string().min(1).max(100).default('flowStatus'),
}).strict();

/**
 * Config of the DingTalk channel (`dingtalk(config)`). Durations in ms.
 *
 * - `appKey` / `appSecret`: the internal app's credentials (token from `POST /v1.0/oauth2/accessToken`).
 * - `robotCode`: the robot that delivers group cards; for an internal-app robot its AppKey (default `appKey`).
 * - `cardTemplateId`: your published card template (AI templates end in `.schema`).
 * - `target`: default destination, `{type:'group', openConversationId}` or `{type:'user', userId}`;
 *   `ProgressCards.open(channel, target)` may give one per card.
 * - `baseUrl`: default `https://api.dingtalk.com`; any http(s) URL, e.g. the emulator's.
 * - `oapiBaseUrl`: the old-style host files are uploaded to (`/media/upload`, with a token from its
 *   `/gettoken`); default `https://oapi.dingtalk.com`, or `baseUrl` when that is not the default
 *   (the emulator serves both).
 * - `fileRoots`: directories files attached with `card.attach(path)` may be read from and sent by
 *   the robot into the card's chat (at most 20 MB each). Default none: the final card names the
 *   file as not uploaded and no file is read.
 * - feature switches (the core kit's, also from `DINGTALK_CARD_*` variables, which win): `progressive`,
 *   `footerStyle`, `footerFields`, `toolFoldAfter` (overrides `maxToolLines`), `cardPer`, `locale`
 *   (default: the run's, else the channel's), `completionPing`, `runCallCap`, `monthlyQuota`; see `resolveFeatureSwitches`.
 * - `timeZone` (IANA, for the footer's sent-at time).
 * - `tickMs`, `budget`, `perCardIntervalMs`, `debounceMs`: override the channel defaults (the core's timing schema).
 * - `verbosity`: `quiet` | `compact` | `detailed`, or `{ direct?, group? }`: how much the cards show (default `detailed`).
 * - `templateKeys`: variable names in your template; `cardParams`: extra fixed template variables
 *   (non-strings are JSON-encoded, since every cardParamMap value must be a string).
 * - `maxContentChars`: size guard of the markdown variable, in code points (default 2500: the docs cap a
 *   variable at 1 KB and streamed content at "preferably 3 K", and replies above about 3 000 characters
 *   have rendered as a blank card, soimy/openclaw-channel-dingtalk#615). A final answer that does not
 *   fit continues in follow-up messages (at most `maxContinuationMessages`, default 20).
 * - `contentMode`: `streaming` (default: the content goes through `PUT /v1.0/card/streaming`; the
 *   template's Markdown component needs its streaming switch on) or `card-data` (instance updates only,
 *   for templates without a streaming component). Without the `Card.Streaming.Write` scope the channel
 *   switches to `card-data` by itself (one warning).
 * - `cardDataTemplateId`: a template whose Markdown component has no streaming switch, used for new
 *   cards once the streaming API was refused for its scope (with the switch on, content written as
 *   card data may never show, https://open.dingtalk.com/document/development/ai-card-template).
 * - `failedState`: the AI-card state a failed run ends in: `finished` (default; the ❌ status line and
 *   the error are in the content) or `failed` (`flowStatus` 5 / `isError`; enable the failed state in
 *   the template first, it is off by default and then shows the platform's own text).
 * - `layoutVariables`: send `sys_full_json_obj` (`order`: title, content) and `config`, as DingTalk's
 *   SDK does for its AI Markdown template (default true).
 * - `maxToolLines`: tool lines shown (running ones first, then the latest); default 12.
 * - `timeoutMs`: per HTTP request, default 10000.
 * - `callbacks`: `{ mode: 'stream' }` receives card button clicks over Stream mode (the official
 *   `dingtalk-stream` client, no public URL; cards are created with `callbackType: 'STREAM'`,
 *   https://open.dingtalk.com/document/development/create-and-deliver-cards); the buttons come from the
 *   controls variable (`callbacks.controlsKey`, default `pcControls`) your template binds. Without
 *   it, open questions show the text reply to type. `{ mode: 'http', port, … }` instead serves an
 *   HTTP endpoint on `host:port` + `path` (default `/dingtalk/card-callback`), registers it
 *   (`publicUrl`, default the listening URL) for `routeKey` (default `progresscard`) with
 *   `POST /v1.0/card/callbacks/register` and creates cards with `callbackType: 'HTTP'`
 *   (https://open.dingtalk.com/document/development/register-card-callback-address); with
 *   `apiSecret` it refuses callbacks whose `timestamp` / `sign` headers do not match it.
 *
 * Unknown fields (a misspelled `apisecret`) are refused with a {@link DingTalkConfigError} naming
 * the field, its value hidden.
 */
export const DingTalkConfigSchema = z.object({
  appKey: z.string().trim().min(1),
  appSecret: z.string().min(1),
  robotCode: z.string().trim().min(1).optional(),
  cardTemplateId: z.string().trim().min(1),
  target: DingTalkTargetSchema.optional(),
  baseUrl: HttpUrlSchema.default(DINGTALK_API_BASE_URL),
  oapiBaseUrl: HttpUrlSchema.optional(),
  fileRoots: z.array(z.string().min(1)).default([]),
  timeZone: z
    .string()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone')
    .optional(),
  ...TIMING_OVERRIDES_SHAPE,
  ...FEATURE_SWITCHES_SHAPE,
  templateKeys: TemplateKeysSchema.default({ title: 'msgTitle', content: 'msgContent', flowStatus: 'flowStatus' }),
  callbacks: z
    .discriminatedUnion('mode', [
      z.object({ mode: z.literal('stream'), controlsKey: z.string().min(1).max(100).default('pcControls') }).strict(),
      z
        .object({
          mode: z.literal('http'),
          controlsKey: z.string().min(1).max(100).default('pcControls'),
          host: z.string().min(1).default('127.0.0.1'),
          port: z.number().int().min(0).max(65_535),
          path: z.string().startsWith('/').default('/dingtalk/card-callback'),
          publicUrl: HttpUrlSchema.optional(),
          routeKey: z.string().trim().min(1).max(100).default('progresscard'),
          apiSecret: z.string().min(1).optional(),
        })
        .strict(),
    ])
    .optional(),
  cardParams: z.record(z.string().min(1).max(100), z.unknown()).default({}),
  maxContentChars: z.number().int().min(500).max(20_000).default(2500),
  maxContinuationMessages: z.number().int().min(0).max(100).default(20),
  contentMode: z.enum(['streaming', 'card-data']).default('streaming'),
  cardDataTemplateId: z.string().trim().min(1).optional(),
  failedState: z.enum(['finished', 'failed']).default('finished'),
  layoutVariables: z.boolean().default(true),
  maxToolLines: z.number().int().min(1).max(100).default(12),
  timeoutMs: positiveInt.default(10_000),
}).strict();

/** Config as written by the user (defaults optional). */
export type DingTalkConfigInput = z.input<typeof DingTalkConfigSchema>;
/** Config with defaults applied. */
export type DingTalkConfig = z.output<typeof DingTalkConfigSchema>;

/**
 * Bad DingTalk config: names the field and the value (secrets shown as `<hidden>`),
 * e.g. `dingtalk baseUrl = "ftp://x" (must be an http(s) URL)`.
 */
export class DingTalkConfigError extends ChannelConfigError {
  override readonly name = 'DingTalkConfigError';
}
