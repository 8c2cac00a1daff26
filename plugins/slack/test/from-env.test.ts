import { MissingEnvError } from '@progresscard/core/plugin';
import { describe, expect, it } from 'vitest';
import { SLACK_ENV_VARIABLES, slack, SlackConfigError } from '../src/index.js';

const TOKEN = 'xoxb-1234-secret-token';
const ENV = { SLACK_BOT_TOKEN: TOKEN, SLACK_CHANNEL_ID: ' C0TEAM\n' };

describe('slack.fromEnv', () => {
  it('reads the documented variables (ids trimmed) and takes overrides over them', () => {
    const plugin = slack.fromEnv({ tickMs: 5000 }, { env: { ...ENV, SLACK_API_URL: 'http://127.0.0.1:9/api/' } });
    expect(plugin.config).toMatchObject({ channel: 'C0TEAM', apiUrl: 'http://127.0.0.1:9/api/', tickMs: 5000 });
    expect(plugin.overrides).toEqual({ tickMs: 5000 });
    expect(slack.fromEnv({ channel: 'C0OTHER' }, { env: ENV }).config.channel).toBe('C0OTHER');
    expect(slack.fromEnv({}, { env: ENV }).config.apiUrl).toBe('https://slack.com/api/');
  });

  it('names every missing or empty variable at once, never a value', () => {
    const attempt = () => slack.fromEnv({}, { env: { SLACK_BOT_TOKEN: '', SLACK_CHANNEL_ID: '  ' } });
    expect(attempt).toThrow(MissingEnvError);
    expect(attempt).toThrow('slack needs the environment variables SLACK_BOT_TOKEN, SLACK_CHANNEL_ID (unset or empty)');
    // A field given in the overrides needs no variable.
    expect(() => slack.fromEnv({ channel: 'C0X' }, { env: {} })).toThrow('slack needs the environment variable SLACK_BOT_TOKEN (unset or empty)');
  });

  it('a bad value names the field and the variable it came from, never the token', () => {
    const attempt = () => slack.fromEnv({}, { env: { ...ENV, SLACK_CHANNEL_ID: 'general' } });
    expect(attempt).toThrow(SlackConfigError);
    expect(attempt).toThrow(/^slack channel \(SLACK_CHANNEL_ID\) = "general" /);
    const badToken = () => slack.fromEnv({}, { env: { ...ENV, SLACK_BOT_TOKEN: 'not-a-token-secret' } });
    expect(badToken).toThrow(/slack botToken \(SLACK_BOT_TOKEN\)/);
    expect(badToken).not.toThrow(/not-a-token-secret/);
  });

  it('lists its variables as data, the required ones first', () => {
    expect(SLACK_ENV_VARIABLES.map((variable) => `${variable.name}${variable.required ? '' : '?'}`)).toEqual(['SLACK_BOT_TOKEN', 'SLACK_CHANNEL_ID', 'SLACK_API_URL?', 'SLACK_SIGNING_SECRET?']);
  });

  it('SLACK_SIGNING_SECRET turns card buttons on, and the secret never shows in the config', () => {
    const plugin = slack.fromEnv({}, { env: { SLACK_BOT_TOKEN: TOKEN, SLACK_CHANNEL_ID: 'C0TEAM', SLACK_SIGNING_SECRET: 'sign-me-secret' } });
    expect(plugin.interaction).toBeDefined();
    expect(plugin.config.interactivity).toMatchObject({ port: 3000, path: '/slack/interactivity', signingSecret: '<hidden>' });
    expect(JSON.stringify(plugin.config)).not.toContain('sign-me-secret');
  });
});

describe('slack apiUrl', () => {
  it('must be an http(s) URL without credentials; the error never shows them', () => {
    expect(() => slack({ botToken: TOKEN, channel: 'C0TEAM', apiUrl: 'ftp://x' })).toThrow('slack apiUrl = "ftp://x" (must be an http(s) URL)');
    const attempt = () => slack({ botToken: TOKEN, channel: 'C0TEAM', apiUrl: 'https://:PASSWORD-do-not-log@x.example/api/' });
    expect(attempt).toThrow('slack apiUrl = "https://<hidden>@x.example/api/" (must not carry a user name or password');
    expect(attempt).not.toThrow(/PASSWORD/);
  });
});
