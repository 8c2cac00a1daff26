import { MissingEnvError } from '@progresscard/core';
import { DEFAULT_TEAMS_BOT, startTeamsEmulator, type TeamsEmulator } from '@progresscard/emulator';
import { TEAMS_ENV_VARIABLES, TeamsConfigError, teams, teamsMessageProblems, type TeamsInvokeEndpoint, type TeamsMessage, type TeamsPlugin } from '@progresscard/plugin-teams';
import { CliUsageError } from '../errors.js';
import { adaptiveCardsOf, renderTeamsActivity, teamsCardState } from '../preview/render-teams.js';
import { PLATFORM_STOP_BUTTON } from '../preview/model.js';
import type { ChannelDescriptor } from './descriptor.js';
import { stringsIn } from './doctor-support.js';

/**
 * Microsoft Teams: Adaptive Cards sent and updated over the Bot Connector REST API. The emulated
 * channel posts into the emulator's group chat (send-and-update); 1:1 chats (`a:…` with `--real`)
 * stream natively.
 */
export const teamsChannel: ChannelDescriptor<'teams', TeamsEmulator> = {
  id: 'teams',
  label: 'Microsoft Teams',
  emulated: {
    start: (port) => startTeamsEmulator({ port }),
    plugin: (emulator, settings) =>
      withEmulatorEndpoint(
        teams(
          {
            appId: DEFAULT_TEAMS_BOT.appId,
            appPassword: DEFAULT_TEAMS_BOT.appPassword,
            tenantId: DEFAULT_TEAMS_BOT.tenantId,
            // the golden payloads render with a stand-in that has only a baseUrl
            loginUrl: emulator.loginUrl ?? emulator.baseUrl,
            serviceUrl: emulator.serviceUrl ?? `${emulator.baseUrl}/`,
            conversationId: DEFAULT_TEAMS_BOT.groupChat,
            tickMs: settings.tickMs,
            ...(settings.locale ? { locale: settings.locale } : {}),
            invoke: { port: 0, openIdMetadataUrl: emulator.openIdMetadataUrl ?? `${emulator.baseUrl}/v1/.well-known/openidconfiguration` },
          },
          { env: settings.switchEnv ?? {} },
        ),
        emulator,
      ),
    env: (emulator) => {
      const values: Record<string, string> = { appId: DEFAULT_TEAMS_BOT.appId, appPassword: DEFAULT_TEAMS_BOT.appPassword, conversationId: DEFAULT_TEAMS_BOT.groupChat, tenantId: DEFAULT_TEAMS_BOT.tenantId, serviceUrl: emulator.serviceUrl, loginUrl: emulator.loginUrl };
      return TEAMS_ENV_VARIABLES.filter((variable) => values[variable.field] !== undefined).map((variable) => ({ name: variable.name, value: values[variable.field]! }));
    },
    pluginHint: (emulator) => `teams({ …, serviceUrl: '${emulator.serviceUrl}', loginUrl: '${emulator.loginUrl}' })`,
  },
  real: {
    requiredEnv: TEAMS_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { TEAMS_APP_ID: DEFAULT_TEAMS_BOT.appId, TEAMS_APP_PASSWORD: DEFAULT_TEAMS_BOT.appPassword, TEAMS_CONVERSATION_ID: DEFAULT_TEAMS_BOT.groupChat },
    variables: TEAMS_ENV_VARIABLES,
    optionalEnv: TEAMS_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return teams.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env: settings.switchEnv ?? env });
      } catch (error) {
        throw error instanceof TeamsConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: ['set TEAMS_INVOKE_PORT: the messaging endpoint is served there at /api/messages', "enter its public HTTPS URL as the Azure Bot's messaging endpoint"],
      listening: 'the messaging endpoint is listening (every request is checked for its Bot Framework JWT)',
      caveats: ['doctor does not read the Azure Bot registration: if its messaging endpoint does not point here, clicks arrive nowhere'],
    },
    /** The client-credentials grant says whether the app id and secret are valid (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-authentication). */
    checkCredentials: async (env) => {
      const login = (env.TEAMS_LOGIN_URL?.trim() || 'https://login.microsoftonline.com').replace(/\/+$/, '');
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: env.TEAMS_APP_ID?.trim() ?? '', client_secret: env.TEAMS_APP_PASSWORD ?? '', scope: 'https://api.botframework.com/.default' });
      const response = await fetch(`${login}/${encodeURIComponent(env.TEAMS_TENANT_ID?.trim() || 'botframework.com')}/oauth2/v2.0/token`, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) });
      const json = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
      if (typeof json.access_token !== 'string') throw new Error(`the token endpoint refused the app id and secret: ${response.status} ${String(json.error ?? 'no answer')}`);
    },
    payloadProblems: (payload) => {
      const message = payload as Partial<TeamsMessage> | null;
      if (!message || typeof message !== 'object') return ['the payload is not an object'];
      return message.card || (typeof message.text === 'string' && message.text !== '') ? [] : ['neither a card nor text'];
    },
    limitProblems: (payload) => teamsMessageProblems(payload as TeamsMessage),
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) =>
      emulator
        .activities()
        .filter((a) => !a.deleted)
        .map((a) => {
          const first = adaptiveCardsOf(a.attachments)[0]?.body?.find((element) => element.type === 'TextBlock')?.text ?? a.text;
          return {
            id: a.id,
            revision: `${a.updates}:${a.updatedAt}:${a.stream?.state ?? ''}`,
            state: a.stream?.state === 'streaming' ? 'running' : teamsCardState(first),
            createdAt: a.createdAt,
            updatedAt: a.updatedAt,
            version: a.updates,
            render: () => renderTeamsActivity(a.text, a.attachments, a.stream?.informative, a.stream?.state === 'streaming'),
          };
        }),
    calls: (emulator) => emulator.calls().map((call) => ({ ...call, code: call.outcome === 'accepted' ? 0 : (call.msg ?? call.code) })),
    isTokenRoute: (route) => route === 'token',
    /** HTTP 429 (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit). */
    isRateLimited: (call) => call.status === 429,
    finalPayload: (emulator, messageId) => {
      const held = emulator.activities().find((a) => a.id === messageId);
      return held ? { ...(held.text ? { text: held.text } : {}), attachments: held.attachments } : undefined;
    },
    async click(emulator, click) {
      const held = emulator.activities().find((a) => a.id === click.cardId);
      if (!held) return { ok: false, message: `no card ${click.cardId}` };
      // Teams' Stop on a streaming message: later stream updates are refused, "Content stream was canceled by user"
      // (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux).
      if (click.button === PLATFORM_STOP_BUTTON) {
        try {
          emulator.stopStreamByUser(held.conversationId, held.id);
          return { ok: true, message: 'stream stopped' };
        } catch (error) {
          return { ok: false, message: (error as Error).message };
        }
      }
      const result = await emulator.click({ conversationId: held.conversationId, activityId: held.id, button: click.button, user: { id: click.user, name: click.user } });
      const value = (result.body as { value?: unknown } | undefined)?.value;
      return { ok: result.error === undefined && result.status === 200, message: result.error ?? (typeof value === 'string' ? value : 'card updated') };
    },
  },
};

/** The plugin with its messaging endpoint registered with the emulator once it listens. */
function withEmulatorEndpoint(plugin: TeamsPlugin, emulator: TeamsEmulator): TeamsPlugin {
  const endpoint = plugin.interaction as TeamsInvokeEndpoint;
  return {
    ...plugin,
    interaction: {
      async start(onClick) {
        await endpoint.start(onClick);
        emulator.setBotEndpoint?.({ url: endpoint.url!, appId: DEFAULT_TEAMS_BOT.appId });
      },
      stop: () => endpoint.stop(),
    },
  };
}
