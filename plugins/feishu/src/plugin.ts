import { configFromEnv, parseTimingOverrides, resolveFeatureSwitches, withEnvNames, type ChannelPlugin, type EnvSource } from '@progresscard/core';
import { FEISHU_CARDKIT_DEFAULTS, FEISHU_DEFAULTS, FeishuConfigError, FeishuConfigSchema, parseFeishuConfig, type FeishuConfig, type FeishuConfigInput } from './config.js';
import { feishuBudgetKeys } from './budget-keys.js';
import { FEISHU_ENV_VARIABLES } from './env.js';
import type { FeishuCard } from './render/payload.js';
import { createFeishuRenderer } from './render/renderer.js';
import { feishuInteraction } from './interaction/channel-interaction.js';
import { FeishuTransport, type FeishuTarget, type FeishuTransportOptions } from './transport/transport.js';

/** The Feishu channel plugin. `config` is the validated config without the app secret. */
export interface FeishuPlugin extends ChannelPlugin<FeishuCard, FeishuTarget | string> {
  readonly id: 'feishu';
  readonly config: Readonly<Omit<FeishuConfig, 'appSecret'>>;
}

/** Options of {@link feishu} that are not config. */
export interface FeishuPluginOptions {
  /**
   * A ready `@larksuiteoapi/node-sdk` client; by default one is built from the config with its own
   * token cache and request timeout. With a client of your own, `refreshAuth` cannot clear its token cache.
   */
  readonly client?: FeishuTransportOptions['client'];
  /** Read for the feature switch variables `FEISHU_CARD_*` (default `process.env`). */
  readonly env?: EnvSource;
}

/** Options of `feishu.fromEnv`: those of {@link feishu}; `env` is also where the config variables are read. */
export type FeishuFromEnvOptions = FeishuPluginOptions;

/**
 * The Feishu/Lark channel: Card JSON 2.0 cards sent and patched through the official SDK, or with
 * `mode: 'cardkit'` CardKit card entities whose answer types itself out; an answer too long for one
 * card continues in reply cards (`renderContinuations`).
 *
 * ```ts
 * const cards = createProgressCards({ channels: [feishu({ appId, appSecret, receiveId: 'oc_…' })] });
 * ```
 * Feature switches come from the config and the `FEISHU_CARD_*` variables (which win; see
 * `resolveFeatureSwitches`).
 * @throws FeishuConfigError naming the bad field and value (never the secret), e.g. `feishu tickMs = 0 (…)`.
 */
export function feishu(config: FeishuConfigInput, options: FeishuPluginOptions = {}): FeishuPlugin {
  const parsed = parseFeishuConfig(config);
  const { appSecret: _secret, ...visible } = parsed;
  const switches = resolveFeatureSwitches('feishu', parsed, { env: options.env, error: (...args) => new FeishuConfigError(...args) });
  const renderer = createFeishuRenderer({
    locale: switches.locale,
    footerStyle: switches.footerStyle,
    footerFields: switches.footerFields,
    toolFoldAfter: switches.toolFoldAfter,
    timeZone: parsed.timeZone,
    overflow: parsed.overflow,
    controls: parsed.callbacks ? 'buttons' : 'text',
  });
  return {
    id: 'feishu',
    configSchema: FeishuConfigSchema,
    defaults: parsed.mode === 'cardkit' ? FEISHU_CARDKIT_DEFAULTS : FEISHU_DEFAULTS,
    overrides: parseTimingOverrides('feishu', parsed),
    budgetKeys: feishuBudgetKeys(parsed),
    switches,
    credentials: 'the app id and secret (FEISHU_APP_ID, FEISHU_APP_SECRET)',
    config: Object.freeze(visible),
    renderer,
    transport: new FeishuTransport(parsed, options),
    interaction: feishuInteraction(parsed, (view) => renderer.render(view)),
  };
}

/**
 * The Feishu channel configured from the environment ({@link FEISHU_ENV_VARIABLES}):
 * `FEISHU_APP_ID`, `FEISHU_APP_SECRET`, `FEISHU_CHAT_ID` and optionally `FEISHU_DOMAIN`. `overrides`
 * win over the environment, and a field given there needs no variable.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [feishu.fromEnv({ tickMs: 5000 })] });
 * ```
 * @throws MissingEnvError naming every required variable that is unset or empty, e.g.
 *   `feishu needs the environment variables FEISHU_APP_SECRET, FEISHU_CHAT_ID (unset or empty)`.
 * @throws FeishuConfigError naming the bad field, the variable it came from and its value (never the secret).
 */
feishu.fromEnv = function fromEnv(overrides: Partial<FeishuConfigInput> = {}, options: FeishuFromEnvOptions = {}): FeishuPlugin {
  const env = options.env ?? process.env;
  const config = configFromEnv('feishu', FEISHU_ENV_VARIABLES, env, overrides);
  return withEnvNames(FEISHU_ENV_VARIABLES, overrides, () => feishu(config as FeishuConfigInput, { ...options, env }));
};
