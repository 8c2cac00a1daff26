import { DEFAULT_DISCORD_APP, startDiscordEmulator, type DiscordEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { DISCORD_ENV_VARIABLES, DiscordConfigError, discord, discordMessageProblems, type DiscordInteractions, type DiscordMessage, type DiscordPlugin } from '@progresscard/plugin-discord';
import { CliUsageError } from '../errors.js';
import { discordCardState, renderDiscordMessage } from '../preview/render-discord.js';
import type { ChannelDescriptor } from './descriptor.js';
import { stringsIn } from './doctor-support.js';

/** A well-formed key for a stand-in emulator without a key pair (nothing is verified with it). */
const STAND_IN_PUBLIC_KEY = '0'.repeat(64);

/** Discord: rich-embed messages created and edited over REST, paced by the limits Discord announces. */
export const discordChannel: ChannelDescriptor<'discord', DiscordEmulator> = {
  id: 'discord',
  label: 'Discord',
  emulated: {
    start: (port) => startDiscordEmulator({ port }),
    plugin: (emulator, settings) =>
      withEmulatorInteractions(
        discord(
          {
            botToken: DEFAULT_DISCORD_APP.botToken,
            channelId: DEFAULT_DISCORD_APP.channel,
            // the golden payloads render with a stand-in that has only a baseUrl (and no key pair)
            apiUrl: emulator.apiUrl ?? `${emulator.baseUrl}/api/v10`,
            tickMs: settings.tickMs,
            ...(settings.locale ? { locale: settings.locale } : {}),
            interactions: { publicKey: emulator.publicKey ?? STAND_IN_PUBLIC_KEY, port: 0 },
          },
          { env: settings.switchEnv ?? {} },
        ),
        emulator,
      ),
    env: (emulator) => {
      const values: Record<string, string> = { botToken: DEFAULT_DISCORD_APP.botToken, channelId: DEFAULT_DISCORD_APP.channel, apiUrl: emulator.apiUrl };
      return DISCORD_ENV_VARIABLES.filter((variable) => values[variable.field] !== undefined).map((variable) => ({ name: variable.name, value: values[variable.field]! }));
    },
    pluginHint: (emulator) => `discord({ …, apiUrl: '${emulator.apiUrl}' })`,
  },
  real: {
    requiredEnv: DISCORD_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { DISCORD_BOT_TOKEN: DEFAULT_DISCORD_APP.botToken, DISCORD_CHANNEL_ID: DEFAULT_DISCORD_APP.channel },
    variables: DISCORD_ENV_VARIABLES,
    optionalEnv: DISCORD_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return discord.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env: settings.switchEnv ?? env });
      } catch (error) {
        throw error instanceof DiscordConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: [
        'set DISCORD_PUBLIC_KEY (Developer Portal → General Information → Public Key): the endpoint is served on port 3001 at /discord/interactions',
        'in the Developer Portal: Interactions Endpoint URL = the public HTTPS URL in front of that port (Discord checks it with a PING)',
      ],
      listening: 'the interactions endpoint is listening (requests are checked with the Ed25519 public key)',
      caveats: ['Discord only accepts the endpoint URL once it answers its signed PING: save it in the portal while the endpoint runs'],
    },
    /** `GET /users/@me` says whether the bot token is valid (https://discord.com/developers/docs/resources/user#get-current-user). */
    checkCredentials: async (env) => {
      const base = (env.DISCORD_API_URL?.trim() || 'https://discord.com/api/v10').replace(/\/+$/, '');
      const response = await fetch(`${base}/users/@me`, { headers: { authorization: `Bot ${env.DISCORD_BOT_TOKEN?.trim() ?? ''}` }, signal: AbortSignal.timeout(10_000) });
      const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (!response.ok) throw new Error(`Discord refused the bot token: ${response.status} ${String(json.message ?? 'no answer')}`);
    },
    payloadProblems: (payload) => {
      const message = payload as Partial<DiscordMessage> | null;
      if (!message || typeof message !== 'object') return ['the payload is not an object'];
      if (message.embeds !== undefined && !Array.isArray(message.embeds)) return ['embeds is not a list'];
      return (message.embeds?.length ?? 0) > 0 || (typeof message.content === 'string' && message.content !== '') ? [] : ['neither content nor embeds'];
    },
    limitProblems: (payload) => discordMessageProblems(payload as DiscordMessage),
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) =>
      emulator
        .messages()
        .filter((m) => m.state !== 'deleted')
        .map((m) => ({
          id: m.id,
          revision: `${m.edits}:${m.state}`,
          state: discordCardState(m.embeds),
          createdAt: m.createdAt,
          updatedAt: m.updatedAt,
          version: m.edits,
          render: () => renderDiscordMessage(m.content, m.embeds, m.components),
        })),
    calls: (emulator) => emulator.calls().map((call) => ({ ...call, code: call.outcome === 'accepted' ? 0 : call.code })),
    isTokenRoute: (route) => route === 'users.me',
    /** HTTP 429 with `retry_after` (https://discord.com/developers/docs/topics/rate-limits). */
    isRateLimited: (call) => call.status === 429,
    finalPayload: (emulator, messageId) => {
      const held = emulator.message(messageId);
      return held ? { content: held.content, embeds: held.embeds, components: held.components } : undefined;
    },
    async click(emulator, click) {
      const result = await emulator.click({ messageId: click.cardId, button: click.button, userId: /^\d+$/.test(click.user) ? click.user : '42', userName: click.user });
      const data = result.response?.data as { content?: unknown } | undefined;
      return { ok: result.error === undefined && result.status === 200, message: result.error ?? (typeof data?.content === 'string' ? data.content : 'card updated') };
    },
  },
};

/** The plugin with its interactions endpoint registered with the emulator once it listens. */
function withEmulatorInteractions(plugin: DiscordPlugin, emulator: DiscordEmulator): DiscordPlugin {
  const server = plugin.interaction as DiscordInteractions;
  return {
    ...plugin,
    interaction: {
      async start(onClick) {
        await server.start(onClick);
        emulator.configureInteractions({ url: server.url! });
      },
      stop: () => server.stop(),
    },
  };
}
