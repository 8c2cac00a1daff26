import type { EnvVariable } from '@progresscard/core';
import type { SlackConfigInput } from './config.js';

/**
 * The environment variables `slack.fromEnv()` reads, in order. Required: `SLACK_BOT_TOKEN` (the bot
 * token, `xoxb-…`) and `SLACK_CHANNEL_ID` (the channel cards go to, `C…`); optional: `SLACK_API_URL`
 * (the Web API base, such as an emulator's). The `progresscard emulator` command prints the same names.
 */
export const SLACK_ENV_VARIABLES: readonly EnvVariable<SlackConfigInput>[] = [
  { name: 'SLACK_BOT_TOKEN', field: 'botToken', required: true, secret: true, hint: 'the bot token, xoxb-…' },
  { name: 'SLACK_CHANNEL_ID', field: 'channel', required: true, hint: 'the channel cards go to, C…' },
  { name: 'SLACK_API_URL', field: 'apiUrl', required: false, hint: 'the Web API base, default https://slack.com/api/' },
];
