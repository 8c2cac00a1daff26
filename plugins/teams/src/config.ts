import { ChannelConfigError, FEATURE_SWITCHES_SHAPE, HttpUrlSchema, MAX_TIMER_MS, TIMING_OVERRIDES_SHAPE, z, type BudgetWindow, type ChannelSettings } from '@progresscard/core/plugin';

/**
 * Teams' channel defaults: tick 3000 ms; a budget of 30 calls a second for the app ("global limit per
 * app per tenant … 30 RPS"; the per-conversation windows are a budget key of their own, see
 * `TEAMS_CONVERSATION_WINDOWS`), https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit;
 * 1000 ms between two calls for one card; text released at least every 1500 ms ("Buffer the tokens from
 * the model for 1.5 to two seconds", https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux).
 */
export const TEAMS_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 30, intervalMs: 1000 }],
  perCardIntervalMs: 1000,
  debounceMs: 1500,
};

/**
 * "Send to conversation" per bot per thread (a group chat or channel): 7 a second, 8 in two seconds, 60
 * in 30 seconds (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit). Updates and
 * stream chunks are counted too (whether Teams counts them is not stated: UNCONFIRMED).
 */
export const TEAMS_CONVERSATION_WINDOWS: readonly BudgetWindow[] = [
  { limit: 7, intervalMs: 1000 },
  { limit: 8, intervalMs: 2000 },
  { limit: 60, intervalMs: 30_000 },
];

/**
 * The windows of a 1:1 chat: {@link TEAMS_CONVERSATION_WINDOWS} and 1800 an hour ("The thread limit of
 * 3600 seconds and 1800 operations applies only if multiple bot messages are sent to a single user", same page).
 */
export const TEAMS_PERSONAL_CHAT_WINDOWS: readonly BudgetWindow[] = [...TEAMS_CONVERSATION_WINDOWS, { limit: 1800, intervalMs: 3_600_000 }];

/** Conversation types: a 1:1 chat with the bot, a group chat, a channel of a team. */
export const TEAMS_CONVERSATION_TYPES = ['personal', 'groupChat', 'channel'] as const;
/** One of {@link TEAMS_CONVERSATION_TYPES}. */
export type TeamsConversationType = (typeof TEAMS_CONVERSATION_TYPES)[number];

const BudgetWindowSchema = z.object({ limit: z.number().int().positive(), intervalMs: z.number().int().positive() }).strict();
const TimeoutSchema = z.number().int().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` });

/**
 * Config of `teams(config)`. Durations in ms.
 * - `appId`, `appPassword`: the bot's Microsoft App ID and client secret (Azure Bot registration); the
 *   plugin gets its bearer token with the client-credentials grant (scope
 *   `https://api.botframework.com/.default`) and refreshes it before it expires.
 * - `tenantId`: the tenant of a single-tenant bot (the token endpoint `…/{tenantId}/oauth2/v2.0/token`);
 *   absent: `botframework.com` (multi-tenant bots).
 * - `loginUrl`: the token endpoint's host, default `https://login.microsoftonline.com` (an emulator's in tests).
 * - `serviceUrl`: the Bot Connector base the conversation lives at: the `serviceUrl` of the activities
 *   Teams sent the bot (default `https://smba.trafficmanager.net/teams/`).
 * - `conversationId`: where cards go (`a:…` a 1:1 chat, `19:…@thread.v2` a group chat, `19:…@thread.tacv2`
 *   a channel); a target given to `open()` overrides it. `conversationType`: default `personal` for an
 *   id starting with `a:`, else `groupChat` (a channel behaves the same for cards).
 * - `conversationBudget`: the windows of one conversation (default {@link TEAMS_CONVERSATION_WINDOWS}, and
 *   {@link TEAMS_PERSONAL_CHAT_WINDOWS} for a 1:1 chat).
 * - `streaming`: `mode` `native` (default) streams cards in 1:1 chats (Teams streams only there), `off`
 *   sends and updates an Adaptive Card everywhere; `lifetimeMs` a stream's life (default 120 000, the
 *   documented two minutes; the core rolls over to a fresh stream before it).
 * - `invoke`: card buttons (`Action.Execute`). The plugin serves the bot's messaging endpoint on
 *   `host:port` + `path` (default `/api/messages`) and checks every request's Bot Framework JWT against
 *   the keys of `openIdMetadataUrl` (default `https://login.botframework.com/v1/.well-known/openidconfiguration`).
 * - feature switches, `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget`, `verbosity`: as every channel.
 * - `requestTimeoutMs`: abort a call after this long (default 10000).
 */
export const TeamsConfigSchema = z
  .object({
    appId: z.string().min(1),
    appPassword: z.string().min(1),
    tenantId: z.string().regex(/^[\w.-]+$/, 'a tenant id (GUID) or domain').optional(),
    loginUrl: HttpUrlSchema.default('https://login.microsoftonline.com'),
    serviceUrl: HttpUrlSchema.default('https://smba.trafficmanager.net/teams/'),
    conversationId: z.string().regex(/^(a:|19:|8:)\S+$/, 'a conversation id such as a:1Xyz… or 19:…@thread.v2'),
    conversationType: z.enum(TEAMS_CONVERSATION_TYPES).optional(),
    conversationBudget: z.array(BudgetWindowSchema).min(1).optional(),
    ...TIMING_OVERRIDES_SHAPE,
    ...FEATURE_SWITCHES_SHAPE,
    requestTimeoutMs: TimeoutSchema.default(10_000),
    streaming: z
      .object({
        mode: z.enum(['native', 'off']).default('native'),
        lifetimeMs: z.number().int().min(1000).max(MAX_TIMER_MS).default(120_000),
      })
      .strict()
      .default({ mode: 'native', lifetimeMs: 120_000 }),
    invoke: z
      .object({
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535),
        path: z.string().startsWith('/').default('/api/messages'),
        openIdMetadataUrl: HttpUrlSchema.default('https://login.botframework.com/v1/.well-known/openidconfiguration'),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Config as written by the user. */
export type TeamsConfigInput = z.input<typeof TeamsConfigSchema>;
/** Config with defaults applied. */
export type TeamsConfig = z.output<typeof TeamsConfigSchema>;

/** The type of conversation `id` when none is given: `a:…` is a 1:1 chat. */
export function conversationTypeOf(id: string, given?: TeamsConversationType): TeamsConversationType {
  return given ?? (id.startsWith('a:') ? 'personal' : 'groupChat');
}

/** Bad Teams config: names the field and value (the client secret is shown as `<hidden>`). */
export class TeamsConfigError extends ChannelConfigError {
  override readonly name = 'TeamsConfigError';
}
