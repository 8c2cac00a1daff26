import { defineChannel, type ChannelContext, type DefinedChannel } from '@progresscard/core/plugin';
import { FEISHU_CARDKIT_DEFAULTS, FEISHU_DEFAULTS, FeishuConfigError, FeishuConfigSchema, type FeishuConfig } from './config.js';
import { feishuBudgetKeys } from './budget-keys.js';
import { FEISHU_ENV_VARIABLES } from './env.js';
import type { FeishuCard } from './render/payload.js';
import { createFeishuRenderer } from './render/renderer.js';
import { feishuInteraction } from './interaction/channel-interaction.js';
import type * as lark from '@larksuiteoapi/node-sdk';
import { FeishuTransport } from './transport/transport.js';
import type { FeishuSdkClient, FeishuTarget } from './transport/target.js';

/** The Feishu channel plugin. `config` is the validated config, the app secret and callback secrets shown as `<hidden>`. */
export type FeishuPlugin = DefinedChannel<'feishu', FeishuCard, FeishuTarget | string, FeishuConfig>;

/** Options of {@link feishu} that are not config (besides `env`, read for the switch variables `FEISHU_CARD_*`). */
export interface FeishuPluginOptions {
  /**
   * A ready `@larksuiteoapi/node-sdk` client; by default one is built from the config with its own
   * token cache and request timeout. With a client of your own, `refreshAuth` cannot clear its token cache.
   */
  readonly client?: FeishuSdkClient;
}

/**
 * The Feishu/Lark channel through the official SDK: CardKit card entities whose answer types itself
 * out (the default, `mode: 'cardkit'`; plain patched cards without the `cardkit:card:write` scope),
 * or with `mode: 'message'` Card JSON 2.0 card messages patched in place; an answer too long for one
 * card continues in reply cards (`renderContinuations`).
 *
 * ```ts
 * const cards = createProgressCards({ channels: [feishu({ appId, appSecret, receiveId: 'oc_…' })] });
 * // or from FEISHU_APP_ID, FEISHU_APP_SECRET, FEISHU_CHAT_ID (FEISHU_ENV_VARIABLES), overrides winning:
 * const cards = createProgressCards({ channels: [feishu.fromEnv({ tickMs: 5000 })] });
 * ```
 * Feature switches come from the config and the `FEISHU_CARD_*` variables (which win; see
 * `resolveFeatureSwitches`).
 * @throws FeishuConfigError naming the bad field and value (never the secret), e.g. `feishu tickMs = 0 (…)`;
 *   from `fromEnv` also the variable, and MissingEnvError naming every required variable unset or empty.
 */
export const feishu = defineChannel({
  id: 'feishu',
  configSchema: FeishuConfigSchema,
  env: FEISHU_ENV_VARIABLES,
  secrets: ['appSecret', 'callbacks.verificationToken', 'callbacks.encryptKey'],
  defaults: (config) => (config.mode === 'cardkit' ? FEISHU_CARDKIT_DEFAULTS : FEISHU_DEFAULTS),
  budget: feishuBudgetKeys,
  credentials: 'the app id and secret (FEISHU_APP_ID, FEISHU_APP_SECRET)',
  // The app_id is not a secret (it is in every event the platform sends): it names the app whose messages a resumed card may edit.
  appIdentity: (config) => config.appId,
  configError: FeishuConfigError,
  create: ({ config, rendering, options }: ChannelContext<FeishuConfig, FeishuPluginOptions>) => {
    const renderer = createFeishuRenderer({ ...rendering, timeZone: config.timeZone, overflow: config.overflow, controls: config.callbacks ? 'buttons' : 'text' });
    const interaction = feishuInteraction(config, (view) => renderer.render(view));
    return { renderer, transport: new FeishuTransport(config, options.client ? { client: options.client as lark.Client } : {}), ...(interaction ? { interaction } : {}) };
  },
});
