/**
 * `@progresscard/plugin-teams`: the Microsoft Teams channel. Build it with {@link teams} and hand it to
 * `createProgressCards({ channels: [...] })`. Renderer, guards and transport are internal.
 */
export { teams, type TeamsPlugin } from './plugin.js';
export { TEAMS_ENV_VARIABLES, TEAMS_MESSAGING_PORT } from './env.js';
export {
  TEAMS_DEFAULTS,
  TEAMS_CONVERSATION_WINDOWS,
  TEAMS_PERSONAL_CHAT_WINDOWS,
  TEAMS_CONVERSATION_TYPES,
  TeamsConfigSchema,
  TeamsConfigError,
  type TeamsConfig,
  type TeamsConfigInput,
  type TeamsConversationType,
} from './config.js';
export type { TeamsMessage, AdaptiveCard, AdaptiveElement, AdaptiveExecuteAction, TeamsActionData } from './render/payload.js';
export type { TeamsTarget } from './transport/target.js';
export { classifyTeamsError, TEAMS_STREAM_ERRORS } from './transport/classify.js';
export { teamsMessageProblems } from './render/guards.js';
export { TeamsInvokeEndpoint, type TeamsInvokeEndpointOptions } from './interaction/invoke-endpoint.js';
export { BotTokenValidator, BotTokenError, BOT_FRAMEWORK_ISSUER } from './interaction/bot-token.js';
