/**
 * `@progresscard/plugin-slack`: the Slack channel. Build it with {@link slack} and hand it to
 * `createProgressCards({ channels: [...] })`. Renderer, guards and transport are internal.
 */
export { slack, type SlackPlugin, type SlackPluginOptions } from './plugin.js';
export { SLACK_ENV_VARIABLES, SLACK_INTERACTIVITY_PORT } from './env.js';
export { SLACK_DEFAULTS, SlackConfigSchema, SlackConfigError, type SlackConfig, type SlackConfigInput } from './config.js';
export type { SlackMessage, SlackBlock, SlackText } from './render/payload.js';
export type { SlackTarget } from './transport/transport.js';
export { SLACK_ERROR_KINDS } from './transport/classify.js';
export { slackMessageProblems } from './render/guards.js';
export { SlackInteractivity, type SlackInteractivityOptions } from './interaction/interactivity.js';
export { slackSignature, verifySlackRequest } from './interaction/signature.js';
export type { SlackButton } from './render/payload.js';
