import { MissingEnvError } from '@progresscard/core/plugin';
import { describe, expect, it } from 'vitest';
import { dingtalk, DingTalkConfigError } from '../src/index.js';

const ENV = {
  DINGTALK_APP_KEY: 'dingkey ',
  DINGTALK_APP_SECRET: 'app-secret-value',
  DINGTALK_ROBOT_CODE: 'dingrobot',
  DINGTALK_CARD_TEMPLATE_ID: 'tpl.schema',
  DINGTALK_OPEN_CONVERSATION_ID: 'cidGroup==',
};

describe('dingtalk.fromEnv', () => {
  it('reads the documented variables into a group target, with overrides over them', () => {
    const plugin = dingtalk.fromEnv({ maxToolLines: 5 }, { env: { ...ENV, DINGTALK_BASE_URL: 'http://127.0.0.1:9' } });
    expect(plugin.config).toMatchObject({
      appKey: 'dingkey',
      appSecret: '<hidden>',
      robotCode: 'dingrobot',
      cardTemplateId: 'tpl.schema',
      target: { type: 'group', openConversationId: 'cidGroup==' },
      baseUrl: 'http://127.0.0.1:9',
      maxToolLines: 5,
    });
    const toUser = dingtalk.fromEnv({ target: { type: 'user', userId: 'u1' } }, { env: { ...ENV, DINGTALK_OPEN_CONVERSATION_ID: '' } });
    expect(toUser.config.target).toEqual({ type: 'user', userId: 'u1' });
  });

  it('names every missing or empty variable at once', () => {
    const attempt = () => dingtalk.fromEnv({}, { env: { ...ENV, DINGTALK_APP_SECRET: '', DINGTALK_ROBOT_CODE: undefined } });
    expect(attempt).toThrow(MissingEnvError);
    expect(attempt).toThrow('dingtalk needs the environment variables DINGTALK_APP_SECRET, DINGTALK_ROBOT_CODE (unset or empty)');
  });

  it('a bad value names the field and the variable it came from', () => {
    expect(() => dingtalk.fromEnv({}, { env: { ...ENV, DINGTALK_BASE_URL: 'ftp://api.dingtalk.com' } })).toThrow(
      new DingTalkConfigError('dingtalk', 'baseUrl (DINGTALK_BASE_URL)', '"ftp://api.dingtalk.com"', 'must be an http(s) URL'),
    );
  });
});

describe('DINGTALK_CALLBACKS with DINGTALK_CALLBACK_API_SECRET', () => {
  it('http:<port> takes the apiSecret from DINGTALK_CALLBACK_API_SECRET; without it the callbacks warn that nothing is verified', () => {
    const signed = dingtalk.fromEnv({}, { env: { ...ENV, DINGTALK_CALLBACKS: 'http:8080', DINGTALK_CALLBACK_API_SECRET: 'api-secret-1' } });
    expect(signed.config.callbacks).toMatchObject({ mode: 'http', port: 8080 });
    expect(signed.interaction!.warnings).toEqual([]);
    const unsigned = dingtalk.fromEnv({}, { env: { ...ENV, DINGTALK_CALLBACKS: 'http:8080' } });
    expect(unsigned.interaction!.warnings).toEqual([expect.stringContaining('DINGTALK_CALLBACK_API_SECRET')]);
  });

  it('the secret without DINGTALK_CALLBACKS is refused naming both variables, never showing the secret', () => {
    const attempt = () => dingtalk.fromEnv({}, { env: { ...ENV, DINGTALK_CALLBACK_API_SECRET: 'api-secret-1' } });
    expect(attempt).toThrow(/DINGTALK_CALLBACK_API_SECRET.*<hidden>.*needs DINGTALK_CALLBACKS/);
    expect(attempt).not.toThrow(/api-secret-1/);
  });
});
