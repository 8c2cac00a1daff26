import { configFromEnv, parseTimingOverrides, resolveFeatureSwitches, withEnvNames, type ChannelPlugin, type EnvSource } from '@progresscard/core';
import type { WebClient } from '@slack/web-api';
import { slackBudgetKeys } from './budget-keys.js';
import { SLACK_DEFAULTS, SlackConfigError, SlackConfigSchema, parseSlackConfig, type SlackConfig, type SlackConfigInput } from './config.js';
import { SLACK_ENV_VARIABLES } from './env.js';
import type { SlackMessage } from './render/payload.js';
import { createSlackRenderer } from './render/renderer.js';
import { SlackTransport, type SlackTarget } from './transport/transport.js';
import { SlackInteractivity } from './interaction/interactivity.js';

/** The Slack channel plugin. `config` is the validated config without the bot token. */
export interface SlackPlugin extends ChannelPlugin<SlackMessage, SlackTarget | string> {
  readonly id: 'slack';
  /** The validated config without the bot token (and with the signing secret hidden). */
  readonly config: Readonly<Omit<SlackConfig, 'botToken'>>;
}

/** Options of {@link slack} that are not config. */
export interface SlackPluginOptions {
  /** A ready `@slack/web-api` client (then `apiUrl`, `requestTimeoutMs` and the no-retry settings are yours to set). */
  readonly client?: WebClient;
  /** Read for the feature switch variables `SLACK_CARD_*` (default `process.env`). */
  readonly env?: EnvSource;
}

/** Options of `slack.fromEnv`: those of {@link slack}, and where to read the variables. */
export interface SlackFromEnvOptions extends SlackPluginOptions {
  /** Default `process.env`. */
  readonly env?: EnvSource;
}

/**
 * The Slack channel: Block Kit cards posted with `chat.postMessage` and replaced with `chat.update`
 * through the official `@slack/web-api` client; an answer too long for one message continues in
 * thread replies (`renderContinuations`).
 *
 * ```ts
 * const cards = createProgressCards({ channels: [slack({ botToken: 'xoxb-…', channel: 'C0123ABC' })] });
 * ```
 * @throws SlackConfigError naming the bad field and value (never the token), e.g. `slack channel = "general" (…)`.
 */
export function slack(config: SlackConfigInput, options: SlackPluginOptions = {}): SlackPlugin {
  const parsed = parseSlackConfig(config);
  const { botToken: _token, interactivity, ...rest } = parsed;
  const visible = interactivity ? { ...rest, interactivity: { ...interactivity, signingSecret: '<hidden>' } } : rest;
  const switches = resolveFeatureSwitches('slack', parsed, { env: options.env, error: (...args) => new SlackConfigError(...args) });
  const renderer = createSlackRenderer({
    locale: switches.locale,
    footerStyle: switches.footerStyle,
    footerFields: switches.footerFields,
    toolFoldAfter: switches.toolFoldAfter,
    controls: parsed.interactivity ? 'buttons' : 'text',
  });
  return {
    id: 'slack',
    configSchema: SlackConfigSchema,
    defaults: SLACK_DEFAULTS,
    overrides: parseTimingOverrides('slack', parsed),
    switches,
    credentials: 'the bot token (SLACK_BOT_TOKEN)',
    config: Object.freeze(visible),
    renderer,
    budgetKeys: slackBudgetKeys(parsed.botToken, parsed.channel),
    transport: new SlackTransport(parsed, { client: options.client }),
    ...(parsed.interactivity ? { interaction: new SlackInteractivity({ ...parsed.interactivity, render: (view) => renderer.render(view) }) } : {}),
  };
}

/**
 * The Slack channel configured from the environment ({@link SLACK_ENV_VARIABLES}): `SLACK_BOT_TOKEN`,
 * `SLACK_CHANNEL_ID` and optionally `SLACK_API_URL`. `overrides` win over the environment, and a
 * field given there needs no variable.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [slack.fromEnv({ tickMs: 5000 })] });
 * ```
 * @throws MissingEnvError naming every required variable that is unset or empty, e.g.
 *   `slack needs the environment variables SLACK_BOT_TOKEN, SLACK_CHANNEL_ID (unset or empty)`.
 * @throws SlackConfigError naming the bad field, the variable it came from and its value (never the token).
 */
slack.fromEnv = function fromEnv(overrides: Partial<SlackConfigInput> = {}, options: SlackFromEnvOptions = {}): SlackPlugin {
  const { env = process.env, ...pluginOptions } = options;
  const config = configFromEnv('slack', SLACK_ENV_VARIABLES, env, overrides);
  return withEnvNames(SLACK_ENV_VARIABLES, overrides, () => slack(config as SlackConfigInput, pluginOptions));
};
