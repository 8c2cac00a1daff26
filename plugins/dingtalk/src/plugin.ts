import { defineChannel, type ChannelContext, type DefinedChannel } from '@progresscard/core/plugin';
import { DINGTALK_API_BASE_URL, DINGTALK_DEFAULTS, DINGTALK_MONTHLY_QUOTA, DingTalkConfigError, DingTalkConfigSchema, type DingTalkConfig } from './config.js';
import { DINGTALK_ENV_VARIABLES } from './env.js';
import type { DingTalkCardPayload } from './render/payload.js';
import { DingTalkRenderer } from './render/renderer.js';
import { dingtalkBudgetKeys } from './budget-keys.js';
import { DingTalkHttp } from './transport/http.js';
import type { DingTalkTarget } from './transport/target.js';
import { AccessTokenCache } from './transport/token.js';
import { DingTalkTransport } from './transport/transport.js';
import { CardWriter } from './transport/card-writer.js';
import { DINGTALK_OAPI_BASE_URL, DingTalkMediaUploader } from './transport/media-upload.js';
import { dingtalkInteraction } from './interaction/callbacks.js';

/** The DingTalk channel plugin as `dingtalk(config)` returns it; `config` shows `appSecret` and `callbacks.apiSecret` as `<hidden>`. */
export type DingTalkPlugin = DefinedChannel<'dingtalk', DingTalkCardPayload, DingTalkTarget, DingTalkConfig>;

/** Options that are not config (besides `env`, read for the switch variables `DINGTALK_CARD_*`): test seams. */
export interface DingTalkPluginOptions {
  /** Epoch-ms clock for the token cache (default `Date.now`). */
  readonly now?: () => number;
}

/** Every cardParamMap value must be a string: strings pass, everything else is JSON-encoded (https://open.dingtalk.com/document/development/instructions-for-filling-in-api-card-data). */
function toCardParamMap(values: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/**
 * The DingTalk channel: AI cards sent with `createAndDeliver`, their content written through the
 * AI-card streaming API (`PUT /v1.0/card/streaming`; `contentMode: 'card-data'` for templates
 * without a streaming component) and their other variables with `PUT /v1.0/card/instances`, over
 * axios against `baseUrl` (the DingTalk API or the emulator). A final answer longer than
 * `maxContentChars` continues in follow-up cards.
 *
 * @example
 * const cards = createProgressCards({ channels: [dingtalk({ appKey, appSecret, cardTemplateId,
 *   target: { type: 'group', openConversationId: 'cid…==' } })] });
 * // or from DINGTALK_APP_KEY, DINGTALK_APP_SECRET, … (DINGTALK_ENV_VARIABLES), overrides winning:
 * const cards = createProgressCards({ channels: [dingtalk.fromEnv({ tickMs: 5000 })] });
 * @throws DingTalkConfigError naming the bad field and its value (a secret's value is never shown),
 *   e.g. `dingtalk tickMs = 0 (…)`; from `fromEnv` also the variable, and MissingEnvError naming
 *   every required variable unset or empty.
 */
export const dingtalk = defineChannel({
  id: 'dingtalk',
  configSchema: DingTalkConfigSchema,
  env: DINGTALK_ENV_VARIABLES,
  secrets: ['appSecret', 'callbacks.apiSecret'],
  defaults: DINGTALK_DEFAULTS,
  budget: (config) => dingtalkBudgetKeys(config.appKey, config.contentMode),
  credentials: 'the app key and secret (DINGTALK_APP_KEY, DINGTALK_APP_SECRET)',
  // The AppKey (Client ID) names the app whose token created the card; it is an identifier, the
  // AppSecret is the secret (https://open.dingtalk.com/document/orgapp/obtain-the-access_token-of-an-internal-app).
  appIdentity: (config) => config.appKey,
  switchDefaults: { monthlyQuota: DINGTALK_MONTHLY_QUOTA },
  configError: DingTalkConfigError,
  create: ({ config: c, rendering, options }: ChannelContext<DingTalkConfig, DingTalkPluginOptions>) => {
    const http = new DingTalkHttp(c.baseUrl, c.timeoutMs);
    const tokens = new AccessTokenCache(http, c.appKey, c.appSecret, options.now);
    const renderer = new DingTalkRenderer({
      keys: c.templateKeys,
      staticParams: toCardParamMap(c.cardParams),
      locale: rendering.locale,
      footerStyle: rendering.footerStyle,
      footerFields: rendering.footerFields,
      timeZone: c.timeZone,
      maxContentChars: c.maxContentChars,
      maxContinuationMessages: c.maxContinuationMessages,
      maxToolLines: rendering.toolFoldAfter ?? c.maxToolLines,
      failedState: c.failedState,
      layoutVariables: c.layoutVariables,
      controls: c.callbacks ? 'buttons' : 'text',
      controlsKey: c.callbacks?.controlsKey,
    });
    const transport = new DingTalkTransport({
      http,
      tokens,
      writer: new CardWriter(http, tokens, c.contentMode, c.templateKeys.content, c.cardDataTemplateId),
      cardTemplateId: c.cardTemplateId,
      robotCode: c.robotCode ?? c.appKey,
      // Streaming: createAndDeliver + streaming PUT; instance PUT + streaming PUT; finalize + instance PUT.
      callsPerOperation: c.contentMode === 'streaming' ? { send: 2, update: 2, final: 2 } : undefined,
      defaultTarget: c.target,
      callbackType: c.callbacks ? (c.callbacks.mode === 'http' ? 'HTTP' : 'STREAM') : undefined,
      callbackRouteKey: c.callbacks?.mode === 'http' ? c.callbacks.routeKey : undefined,
      files: {
        roots: c.fileRoots,
        uploader: new DingTalkMediaUploader({
          // A non-default baseUrl (the emulator, a proxy) serves the old-style routes too, unless told otherwise: no token goes to a host not configured.
          baseUrl: c.oapiBaseUrl ?? (c.baseUrl === DINGTALK_API_BASE_URL ? DINGTALK_OAPI_BASE_URL : c.baseUrl),
          timeoutMs: c.timeoutMs,
          appKey: c.appKey,
          appSecret: c.appSecret,
          http,
          now: options.now,
        }),
      },
    });
    const interaction = dingtalkInteraction(c, { http, tokens }, (view) => renderer.render(view));
    return { renderer, transport, ...(interaction ? { interaction } : {}) };
  },
});
