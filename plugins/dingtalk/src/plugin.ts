import { configFromEnv, parseTimingOverrides, resolveFeatureSwitches, withEnvNames, type CardView, type ChannelPlugin, type EnvSource } from '@progresscard/core';
import { DINGTALK_DEFAULTS, DINGTALK_MONTHLY_QUOTA, DingTalkConfigError, DingTalkConfigSchema, parseDingTalkConfig, type DingTalkConfig, type DingTalkConfigInput } from './config.js';
import { DINGTALK_ENV_VARIABLES } from './env.js';
import { DingTalkRenderer, type DingTalkCardPayload } from './render/renderer.js';
import { dingtalkBudgetKeys } from './budget-keys.js';
import { DingTalkHttp } from './transport/http.js';
import type { DingTalkTarget } from './transport/target.js';
import { AccessTokenCache } from './transport/token.js';
import { DingTalkTransport } from './transport/transport.js';
import { CardWriter } from './transport/card-writer.js';
import { DingTalkHttpCallbacks } from './interaction/http-callbacks.js';
import { DingTalkStreamCallbacks } from './interaction/stream-callbacks.js';
import { DINGTALK_API_ROUTES } from './transport/routes.js';

/** The DingTalk channel plugin as `dingtalk(config)` returns it. */
export type DingTalkPlugin = ChannelPlugin<DingTalkCardPayload, DingTalkTarget> & {
  /** The validated config, `appSecret` replaced by `<hidden>`. */
  readonly config: Readonly<Omit<DingTalkConfig, 'appSecret'> & { appSecret: '<hidden>' }>;
};

/** Options that are not config: test seams. */
export interface DingTalkPluginOptions {
  /** Epoch-ms clock for the token cache (default `Date.now`). */
  readonly now?: () => number;
  /** Read for the feature switch variables `DINGTALK_CARD_*` (default `process.env`). */
  readonly env?: EnvSource;
}

/** Options of `dingtalk.fromEnv`: those of {@link dingtalk}; `env` is also where the config variables are read. */
export type DingTalkFromEnvOptions = DingTalkPluginOptions;

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
 * @throws DingTalkConfigError naming the bad field and its value (a secret's value is never shown),
 *   e.g. `dingtalk tickMs = 0 (…)`.
 */
export function dingtalk(config: unknown, options: DingTalkPluginOptions = {}): DingTalkPlugin {
  const c = parseDingTalkConfig(config);
  const switches = { monthlyQuota: DINGTALK_MONTHLY_QUOTA, ...resolveFeatureSwitches('dingtalk', c, { env: options.env, error: (...args) => new DingTalkConfigError(...args) }) };
  const http = new DingTalkHttp(c.baseUrl, c.timeoutMs);
  const tokens = new AccessTokenCache(http, c.appKey, c.appSecret, options.now);
  const renderer = new DingTalkRenderer({
    keys: c.templateKeys,
    staticParams: toCardParamMap(c.cardParams),
    locale: switches.locale,
    footerStyle: switches.footerStyle,
    footerFields: switches.footerFields,
    timeZone: c.timeZone,
    maxContentChars: c.maxContentChars,
    maxContinuationMessages: c.maxContinuationMessages,
    maxToolLines: switches.toolFoldAfter ?? c.maxToolLines,
    failedState: c.failedState,
    layoutVariables: c.layoutVariables,
    controls: c.callbacks ? 'buttons' : 'text',
    controlsKey: c.callbacks?.controlsKey,
  });
  const transport = new DingTalkTransport({
    http,
    tokens,
    writer: new CardWriter(http, tokens, c.contentMode, c.templateKeys.content),
    cardTemplateId: c.cardTemplateId,
    robotCode: c.robotCode ?? c.appKey,
    defaultTarget: c.target,
    callbackType: c.callbacks ? (c.callbacks.mode === 'http' ? 'HTTP' : 'STREAM') : undefined,
    callbackRouteKey: c.callbacks?.mode === 'http' ? c.callbacks.routeKey : undefined,
  });
  const render = (view: CardView) => renderer.render(view);
  const callbacks = c.callbacks;
  const interaction = !callbacks
    ? undefined
    : callbacks.mode === 'stream'
      ? new DingTalkStreamCallbacks({ appKey: c.appKey, appSecret: c.appSecret, baseUrl: c.baseUrl, contentKey: c.templateKeys.content, render })
      : new DingTalkHttpCallbacks({
          ...callbacks,
          contentKey: c.templateKeys.content,
          render,
          register: async (callbackUrl) => {
            const body = { callbackRouteKey: callbacks.routeKey, callbackUrl, ...(callbacks.apiSecret ? { apiSecret: callbacks.apiSecret } : {}), forceUpdate: true };
            await http.call(DINGTALK_API_ROUTES.registerCallback, body, await tokens.get());
          },
        });
  return {
    id: 'dingtalk',
    configSchema: DingTalkConfigSchema,
    defaults: DINGTALK_DEFAULTS,
    overrides: parseTimingOverrides('dingtalk', c),
    budgetKeys: dingtalkBudgetKeys(c.appKey, c.contentMode),
    switches,
    credentials: 'the app key and secret (DINGTALK_APP_KEY, DINGTALK_APP_SECRET)',
    renderer,
    transport,
    interaction,
    config: { ...c, appSecret: '<hidden>', ...(c.callbacks?.mode === 'http' && c.callbacks.apiSecret ? { callbacks: { ...c.callbacks, apiSecret: '<hidden>' } } : {}) },
  };
}

/**
 * The DingTalk channel configured from the environment ({@link DINGTALK_ENV_VARIABLES}):
 * `DINGTALK_APP_KEY`, `DINGTALK_APP_SECRET`, `DINGTALK_ROBOT_CODE`, `DINGTALK_CARD_TEMPLATE_ID`,
 * `DINGTALK_OPEN_CONVERSATION_ID` (a group target) and optionally `DINGTALK_BASE_URL`. `overrides`
 * win over the environment, and a field given there needs no variable (e.g. `{ target }` instead
 * of `DINGTALK_OPEN_CONVERSATION_ID`).
 *
 * ```ts
 * const cards = createProgressCards({ channels: [dingtalk.fromEnv({ tickMs: 5000 })] });
 * ```
 * @throws MissingEnvError naming every required variable that is unset or empty.
 * @throws DingTalkConfigError naming the bad field, the variable it came from and its value (never the secret).
 */
dingtalk.fromEnv = function fromEnv(overrides: Partial<DingTalkConfigInput> = {}, options: DingTalkFromEnvOptions = {}): DingTalkPlugin {
  const env = options.env ?? process.env;
  const config = configFromEnv('dingtalk', DINGTALK_ENV_VARIABLES, env, overrides);
  return withEnvNames(DINGTALK_ENV_VARIABLES, overrides, () => dingtalk(config, { ...options, env }));
};
