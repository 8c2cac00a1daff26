// Only Teams-prefixed names leave this folder, so `export *` next to the other platforms cannot clash.
export * from './emulator.js';
export { TEAMS_ROUTES, TEAMS_ROUTE_NAMES, TeamsErrors, type TeamsRoute, type TeamsError } from './codes.js';
export { DEFAULT_TEAMS_LIMITS, type TeamsLimits } from './limits.js';
export type { TeamsConversation, TeamsConversationType, TeamsStream, TeamsStreamState } from './activities.js';
export { TeamsAuth, BOT_FRAMEWORK_ISSUER as TEAMS_BOT_FRAMEWORK_ISSUER, type TeamsBotCredentials } from './auth.js';
export type { TeamsBotEndpoint, TeamsClick, TeamsClickResult } from './invokes.js';
