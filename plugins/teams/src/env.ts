import type { EnvVariable } from '@progresscard/core/plugin';
import type { TeamsConfigInput } from './config.js';

/** Port of the messaging endpoint when `TEAMS_INVOKE_PORT` is not set but buttons are on (the Bot Framework samples' 3978). */
export const TEAMS_MESSAGING_PORT = 3978;

/**
 * The environment variables `teams.fromEnv()` reads, in order. Required: `TEAMS_APP_ID`,
 * `TEAMS_APP_PASSWORD` (the bot's client secret) and `TEAMS_CONVERSATION_ID`; optional: `TEAMS_TENANT_ID`
 * (single-tenant bots), `TEAMS_SERVICE_URL` (the conversation's `serviceUrl`), `TEAMS_LOGIN_URL` (the
 * token endpoint's host, such as an emulator's) and `TEAMS_INVOKE_PORT` (turns card buttons on: the
 * messaging endpoint `/api/messages` is served on that port).
 */
export const TEAMS_ENV_VARIABLES: readonly EnvVariable<TeamsConfigInput>[] = [
  { name: 'TEAMS_APP_ID', field: 'appId', required: true, hint: "the bot's Microsoft App ID" },
  { name: 'TEAMS_APP_PASSWORD', field: 'appPassword', required: true, secret: true, hint: "the bot's client secret" },
  { name: 'TEAMS_CONVERSATION_ID', field: 'conversationId', required: true, hint: 'the conversation cards go to, a:… or 19:…@thread.v2' },
  { name: 'TEAMS_TENANT_ID', field: 'tenantId', required: false, hint: 'the tenant of a single-tenant bot (default botframework.com)' },
  { name: 'TEAMS_SERVICE_URL', field: 'serviceUrl', required: false, hint: 'the serviceUrl of the conversation, default https://smba.trafficmanager.net/teams/' },
  { name: 'TEAMS_LOGIN_URL', field: 'loginUrl', required: false, hint: 'the token endpoint host, default https://login.microsoftonline.com' },
  {
    name: 'TEAMS_INVOKE_PORT',
    field: 'invoke',
    required: false,
    hint: `turns card buttons on: the messaging endpoint /api/messages is served on this port (e.g. ${TEAMS_MESSAGING_PORT})`,
    toValue: (port) => ({ port: Number(port) }),
  },
];
