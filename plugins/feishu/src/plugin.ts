import { configFromEnv, parseTimingOverrides, withEnvNames, type ChannelPlugin, type EnvSource } from '@progresscard/core';
import { FEISHU_DEFAULTS, FeishuConfigSchema, parseFeishuConfig, type FeishuConfig, type FeishuConfigInput } from './config.js';
import { FEISHU_ENV_VARIABLES } from './env.js';
import type { FeishuCard } from './render/card-types.js';
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
}

/** Options of `feishu.fromEnv`: those of {@link feishu}, and where to read the variables. */
export interface FeishuFromEnvOptions extends FeishuPluginOptions {
  /** Default `process.env`. */
  readonly env?: EnvSource;
}

/**
 * The Feishu/Lark channel: Card JSON 2.0 cards sent and patched through the official SDK; an
 * answer too long for one card continues in reply cards (`renderContinuations`).
 *
 * ```ts
 * const cards = createProgressCards({ channels: [feishu({ appId, appSecret, receiveId: 'oc_…' })] });
 * ```
 * @throws FeishuConfigError naming the bad field and value (never the secret), e.g. `feishu tickMs = 0 (…)`.
 */
export function feishu(config: FeishuConfigInput, options: FeishuPluginOptions = {}): FeishuPlugin {
  const parsed = parseFeishuConfig(config);
  const { appSecret: _secret, ...visible } = parsed;
  const renderer = createFeishuRenderer({
    locale: parsed.locale,
    footerStyle: parsed.footerStyle,
    timeZone: parsed.timeZone,
    overflow: parsed.overflow,
    controls: parsed.callbacks ? 'buttons' : 'text',
  });
  return {
    id: 'feishu',
    configSchema: FeishuConfigSchema,
    defaults: FEISHU_DEFAULTS,
    overrides: parseTimingOverrides('feishu', parsed),
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
  const { env = process.env, ...pluginOptions } = options;
  const config = configFromEnv('feishu', FEISHU_ENV_VARIABLES, env, overrides);
  return withEnvNames(FEISHU_ENV_VARIABLES, overrides, () => feishu(config as FeishuConfigInput, pluginOptions));
};
