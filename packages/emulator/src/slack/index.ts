// Only Slack-prefixed names leave this folder, so `export *` next to the other platforms cannot clash.
export { SLACK_ROUTES, SLACK_ROUTE_NAMES, SlackErrors, type SlackRoute, type SlackError } from './codes.js';
export { DEFAULT_SLACK_LIMITS, type SlackLimits } from './limits.js';
export { SLACK_MESSAGE_TRANSITIONS, type SlackMessageState } from './messages.js';
export * from './emulator.js';
export { SLACK_INTERACTION_ROUTE, type SlackClick, type SlackClickResult, type SlackInteractivityConfig } from './interactivity.js';
export { SlackStreams, type SlackThreadStatus } from './streams.js';
export type { SlackStreamState } from './messages.js';
export type { StoredSlackFile } from './files.js';
