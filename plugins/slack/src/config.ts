import { ChannelConfigError, MAX_TIMER_MS, FEATURE_SWITCHES_SHAPE, HttpUrlSchema, TIMING_OVERRIDES_SHAPE, type ChannelSettings } from '@progresscard/core/plugin';
import { z } from 'zod';

/**
 * Slack's channel defaults: tick 3000 ms; a budget of 50 calls per minute for chat.update (Tier 3,
 * "50+ per minute" per app per workspace: https://api.slack.com/apis/rate-limits); 1000 ms between two
 * calls for one card (chat.postMessage "generally allows posting one message per second per channel":
 * https://api.slack.com/methods/chat.postMessage); text released at least every 2500 ms.
 */
export const SLACK_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 50, intervalMs: 60_000 }],
  perCardIntervalMs: 1000,
  debounceMs: 2500,
};

/**
 * Config of `slack(config)`. Durations in ms.
 * - `botToken`: the bot token (`xoxb-…`), sent as `Authorization: Bearer`.
 * - `channel`: the channel id cards go to (`C…`); a target given to `open()` overrides it.
 * - `apiUrl`: the Web API base, default `https://slack.com/api/` (the emulator's `apiUrl` in tests).
 * - feature switches (the core kit's, also from `SLACK_CARD_*` variables, which win): `progressive`,
 *   `footerStyle`, `footerFields`, `toolFoldAfter` (default 12), `cardPer`, `locale` (default: the
 *   run's), `completionPing`, `runCallCap`, `monthlyQuota`; see `resolveFeatureSwitches`.
 * - `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget`: override the channel defaults.
 * - `verbosity`: `quiet` | `compact` | `detailed`, or `{ direct?, group? }`: how much the cards show (default `detailed`).
 * - `requestTimeoutMs`: abort a call after this long (default 10000).
 * - `interactivity`: card buttons. The plugin serves the Interactivity Request URL on `host:port` +
 *   `path` (default `/slack/interactivity`; set the public URL in front of it under the app's
 *   "Interactivity & Shortcuts") and checks every request with the app's `signingSecret`
 *   (https://api.slack.com/authentication/verifying-requests-from-slack). Without it, open questions
 *   show the reply to type (`/approve 3F2A`).
 * - `streaming`: Slack's native AI streaming for cards that reply in a thread (`open({ replyTo })`):
 *   `mode` `native` (default) streams them with chat.startStream / appendStream / stopStream, `off`
 *   keeps chat.postMessage + chat.update; `taskDisplayMode` `plan` (default: tool calls and plan
 *   items together in a plan block), `timeline` or `dense`; `lifetimeMs` how long Slack keeps a
 *   stream open (default 300 000: not documented, measured by users; the core rolls over before
 *   it); `teamId` the workspace (`recipient_team_id`; default: learnt once from auth.test).
 * - `aiBlocks`: Slack's AI-app blocks in cards edited in place (default true): the plan as a `plan`
 *   block, tool calls as `task_card` blocks, an answer's first table as a `table` block
 *   (https://docs.slack.dev/reference/block-kit/blocks); false keeps mrkdwn sections and code-block tables.
 * - `appId`: the Slack app's id (`A…`, shown on the app's Basic Information page and in
 *   `api_app_id` of every event), not a secret. Stored with each card so that an app pool changed
 *   by a deploy continues a card on its message only through the app that posted it. A bot token
 *   does not carry it, so without `appId` a pool's apps are known by position only.
 * - `fileRoots`: directories files attached with `card.attach(path)` may be read from and uploaded
 *   (a path must resolve, symlinks followed, inside one of them). Default none: the final card
 *   names the file as not uploaded and no file is read.
 */
export const SlackConfigSchema = z
  .object({
    botToken: z.string().regex(/^xox[abp]-/, 'a Slack token starts with xoxb-'),
    channel: z.string().regex(/^[CDG][A-Z0-9]+$/, 'a channel id such as C0123ABC'),
    apiUrl: HttpUrlSchema.default('https://slack.com/api/'),
    ...TIMING_OVERRIDES_SHAPE,
    ...FEATURE_SWITCHES_SHAPE,
    requestTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` }).default(10_000),
    interactivity: z
      .object({
        signingSecret: z.string().min(1),
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535),
        path: z.string().startsWith('/').default('/slack/interactivity'),
      })
      .strict()
      .optional(),
    streaming: z
      .object({
        mode: z.enum(['native', 'off']).default('native'),
        taskDisplayMode: z.enum(['plan', 'timeline', 'dense']).default('plan'),
        lifetimeMs: z.number().int().min(1000).max(MAX_TIMER_MS).default(300_000),
        teamId: z.string().regex(/^[TE][A-Z0-9]+$/, 'a team id such as T0123ABC').optional(),
      })
      .strict()
      .default({ mode: 'native', taskDisplayMode: 'plan', lifetimeMs: 300_000 }),
    fileRoots: z.array(z.string().min(1)).default([]),
    aiBlocks: z.boolean().default(true),
    appId: z.string().regex(/^A[A-Z0-9]+$/, 'an app id such as A0123ABC').optional(),
  })
  .strict();

/** Config as written by the user. */
export type SlackConfigInput = z.input<typeof SlackConfigSchema>;
/** Config with defaults applied. */
export type SlackConfig = z.output<typeof SlackConfigSchema>;

/** Bad Slack config: names the field and value (the token is shown as `<hidden>`). */
export class SlackConfigError extends ChannelConfigError {
  override readonly name = 'SlackConfigError';
}
