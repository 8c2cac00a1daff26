import type { EnvVariable } from '@progresscard/core/plugin';
import type { SlackConfigInput } from './config.js';

/** Port of the interactivity Request URL when `SLACK_SIGNING_SECRET` turns buttons on (Bolt's default port). */
export const SLACK_INTERACTIVITY_PORT = 3000;

/**
 * The environment variables `slack.fromEnv()` reads, in order. Required: `SLACK_BOT_TOKEN` (the bot
 * token, `xoxb-…`) and `SLACK_CHANNEL_ID` (the channel cards go to, `C…`); optional: `SLACK_API_URL`
 * (the Web API base, such as an emulator's) and `SLACK_SIGNING_SECRET` (card buttons: the
 * interactivity Request URL is served on {@link SLACK_INTERACTIVITY_PORT}; give `interactivity` in
 * the overrides for another port). The `progresscard emulator` command prints the same names.
 */
export const SLACK_ENV_VARIABLES: readonly EnvVariable<SlackConfigInput>[] = [
  { name: 'SLACK_BOT_TOKEN', field: 'botToken', required: true, secret: true, hint: 'the bot token, xoxb-…' },
  { name: 'SLACK_CHANNEL_ID', field: 'channel', required: true, hint: 'the channel cards go to, C…' },
  { name: 'SLACK_API_URL', field: 'apiUrl', required: false, hint: 'the Web API base, default https://slack.com/api/' },
  {
    name: 'SLACK_SIGNING_SECRET',
    field: 'interactivity',
    required: false,
    secret: true,
    hint: `the app's signing secret: turns card buttons on (the Request URL is served on port ${SLACK_INTERACTIVITY_PORT} at /slack/interactivity)`,
    toValue: (signingSecret) => ({ signingSecret, port: SLACK_INTERACTIVITY_PORT }),
  },
];
