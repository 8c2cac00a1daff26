import { DEFAULT_SLACK_WORKSPACE, startSlackEmulator, type SlackEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { SLACK_ENV_VARIABLES, slack, SlackConfigError, slackMessageProblems, type SlackInteractivity, type SlackMessage, type SlackPlugin } from '@progresscard/plugin-slack';
import { CliUsageError } from '../errors.js';
import { renderSlackMessage, slackCardState } from '../preview/render-slack.js';
import { PLATFORM_STOP_BUTTON } from '../preview/model.js';
import type { ChannelDescriptor } from './descriptor.js';
import { postJson, stringsIn } from './doctor-support.js';

/** Slack: Block Kit messages posted and updated through the Web API (chat.postMessage, chat.update). */
export const slackChannel: ChannelDescriptor<'slack', SlackEmulator> = {
  id: 'slack',
  label: 'Slack',
  emulated: {
    start: (port) => startSlackEmulator({ port }),
    plugin: (emulator, settings) =>
      withEmulatorInteractivity(
        slack({
          botToken: DEFAULT_SLACK_WORKSPACE.botToken,
          channel: DEFAULT_SLACK_WORKSPACE.channel,
          apiUrl: emulator.apiUrl,
          tickMs: settings.tickMs,
          ...(settings.locale ? { locale: settings.locale } : {}),
          interactivity: { signingSecret: EMULATED_SIGNING_SECRET, port: 0 },
        }, { env: settings.switchEnv ?? {} }),
        emulator,
      ),
    // The names `slack.fromEnv()` reads (SLACK_ENV_VARIABLES), so the printed exports work as they are.
    env: (emulator) => {
      const values: Record<string, string> = { botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: emulator.apiUrl };
      return SLACK_ENV_VARIABLES.filter((variable) => values[variable.field] !== undefined).map((variable) => ({ name: variable.name, value: values[variable.field]! }));
    },
    pluginHint: (emulator) => `slack({ …, apiUrl: '${emulator.apiUrl}' })`,
  },
  real: {
    requiredEnv: SLACK_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { SLACK_BOT_TOKEN: DEFAULT_SLACK_WORKSPACE.botToken, SLACK_CHANNEL_ID: DEFAULT_SLACK_WORKSPACE.channel },
    variables: SLACK_ENV_VARIABLES,
    optionalEnv: SLACK_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return slack.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env: settings.switchEnv ?? env });
      } catch (error) {
        throw error instanceof SlackConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: [
        'set SLACK_SIGNING_SECRET (Basic Information → App Credentials): the Request URL is served on port 3000 at /slack/interactivity',
        'in the app settings: Interactivity & Shortcuts → on, Request URL = the public URL in front of that port',
      ],
      listening: 'the interactivity Request URL is listening (requests are checked with the signing secret)',
      caveats: ['Slack reports no API for the app\'s Request URL: if it does not point here, clicks show the user a warning and nothing arrives'],
    },
    /** `auth.test` says whether the bot token is valid (https://api.slack.com/methods/auth.test). */
    checkCredentials: async (env) => {
      const base = (env.SLACK_API_URL?.trim() || 'https://slack.com/api/').replace(/\/?$/, '/');
      const { json } = await postJson(`${base}auth.test`, {}, { authorization: `Bearer ${env.SLACK_BOT_TOKEN?.trim() ?? ''}` });
      if (json.ok !== true) throw new Error(`Slack refused the bot token: ${String(json.error ?? 'no answer')}`);
    },
    payloadProblems: (payload) => {
      const message = payload as Partial<SlackMessage> | null;
      if (!message || typeof message !== 'object') return ['the payload is not an object'];
      const problems: string[] = [];
      if (typeof message.text !== 'string' || message.text === '') problems.push('no notification text');
      if (message.blocks !== undefined && !Array.isArray(message.blocks)) problems.push('blocks is not a list');
      return problems;
    },
    limitProblems: (payload) => slackMessageProblems(payload as SlackMessage),
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) =>
      emulator
        .messages()
        .filter((m) => m.state !== 'deleted')
        .map((m) => ({
          id: m.ts,
          revision: `${m.updates}:${m.state}:${m.stream?.state ?? ''}:${m.stream?.chunks.length ?? ''}`,
          state: slackCardState(m.blocks),
          createdAt: m.createdAt,
          updatedAt: m.updatedAt,
          version: m.updates,
          render: () => renderSlackMessage(m.text, m.blocks, m.stream),
        })),
    // Slack answers errors as strings (`ratelimited`, `message_not_found`); the call's `msg` holds them.
    calls: (emulator) => emulator.calls().map((call) => ({ ...call, code: call.outcome === 'accepted' ? 0 : (call.msg ?? call.code) })),
    isTokenRoute: (route) => route === 'auth.test',
    /** HTTP 429 `ratelimited` (https://api.slack.com/apis/rate-limits). */
    isRateLimited: (call) => call.status === 429 || call.code === 'ratelimited',
    finalPayload: (emulator, messageId) => {
      const held = emulator.message(messageId);
      return held ? { text: held.text, blocks: held.blocks } : undefined;
    },
    async click(emulator, click) {
      // The platform's Stop on a live stream: later stream calls answer `stopped_by_user` (https://docs.slack.dev/reference/methods/chat.appendStream).
      if (click.button === PLATFORM_STOP_BUTTON) {
        try {
          emulator.stopStreamByUser(click.cardId);
          return { ok: true, message: 'stream stopped' };
        } catch (error) {
          return { ok: false, message: (error as Error).message };
        }
      }
      const result = await emulator.click({ ts: click.cardId, user: click.user, name: click.user, button: click.button, input: click.input });
      // Slack has no toast: a refusal reaches the user as an ephemeral message, a decision replaces the card.
      return { ok: result.error === undefined, message: result.error ?? result.ephemeral[0] ?? (result.cardUpdated ? 'card updated in place' : '') };
    },
  },
};

/** The signing secret of the emulated channel's interactivity (the emulator signs with it too). */
const EMULATED_SIGNING_SECRET = 'progresscard-emulator-signing-secret';

/** The plugin with its interactivity Request URL registered with the emulator once it listens. */
function withEmulatorInteractivity(plugin: SlackPlugin, emulator: SlackEmulator): SlackPlugin {
  const server = plugin.interaction as SlackInteractivity;
  return {
    ...plugin,
    interaction: {
      async start(onClick) {
        await server.start(onClick);
        emulator.configureInteractivity({ url: server.url!, signingSecret: EMULATED_SIGNING_SECRET });
      },
      stop: () => server.stop(),
    },
  };
}
