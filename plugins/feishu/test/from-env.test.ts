import { MissingEnvError } from '@progresscard/core/plugin';
import { describe, expect, it } from 'vitest';
import { FEISHU_ENV_VARIABLES, feishu, FeishuConfigError } from '../src/index.js';

const ENV = { FEISHU_APP_ID: ' cli_a1b2c3 ', FEISHU_APP_SECRET: 's3cret-value', FEISHU_CHAT_ID: 'oc_team\n' };

describe('feishu.fromEnv', () => {
  it('reads the documented variables (ids trimmed) and takes overrides over them', () => {
    const plugin = feishu.fromEnv({ tickMs: 5000 }, { env: { ...ENV, FEISHU_DOMAIN: 'lark' } });
    expect(plugin.config).toMatchObject({ appId: 'cli_a1b2c3', receiveId: 'oc_team', domain: 'lark', tickMs: 5000 });
    expect(plugin.overrides).toEqual({ tickMs: 5000 });
    expect(feishu.fromEnv({ receiveId: 'oc_other' }, { env: ENV }).config.receiveId).toBe('oc_other');
    expect(feishu.fromEnv({}, { env: ENV }).config.domain).toBe('feishu');
  });

  it('names every missing or empty variable at once, never a value', () => {
    const attempt = () => feishu.fromEnv({}, { env: { FEISHU_APP_ID: 'cli_a1', FEISHU_APP_SECRET: '', FEISHU_CHAT_ID: '  ' } });
    expect(attempt).toThrow(MissingEnvError);
    expect(attempt).toThrow('feishu needs the environment variables FEISHU_APP_SECRET, FEISHU_CHAT_ID (unset or empty)');
    expect(() => feishu.fromEnv({}, { env: {} })).toThrow('FEISHU_APP_ID, FEISHU_APP_SECRET, FEISHU_CHAT_ID');
    // A field given in the overrides needs no variable.
    expect(() => feishu.fromEnv({ receiveId: 'oc_x' }, { env: { FEISHU_APP_ID: 'cli_a1' } })).toThrow(
      'feishu needs the environment variable FEISHU_APP_SECRET (unset or empty)',
    );
  });

  it('a bad value names the field and the variable it came from', () => {
    const attempt = () => feishu.fromEnv({}, { env: { ...ENV, FEISHU_DOMAIN: 'ftp://open.feishu.cn' } });
    expect(attempt).toThrow(FeishuConfigError);
    expect(attempt).toThrow(/^feishu domain \(FEISHU_DOMAIN\) = "ftp:\/\/open.feishu.cn" /);
  });

  it.each(['larksuite', 'open.feishu.cn', 'Lark', 'ftp://open.feishu.cn'])('FEISHU_DOMAIN=%s is refused naming the variable, the value and the accepted values', (domain) => {
    const attempt = () => feishu.fromEnv({}, { env: { ...ENV, FEISHU_DOMAIN: domain } });
    expect(attempt).toThrow(FeishuConfigError);
    expect(attempt).toThrow(`feishu domain (FEISHU_DOMAIN) = ${JSON.stringify(domain)} (expected feishu (open.feishu.cn, the default), lark (open.larksuite.com) or an http(s) base URL`);
  });

  it('CardKit is the default; FEISHU_CARD_MODE=message turns on the patched IM card; a wrong value names the variable', () => {
    expect(feishu.fromEnv({}, { env: ENV }).config.mode).toBe('cardkit');
    expect(feishu.fromEnv({}, { env: { ...ENV, FEISHU_CARD_MODE: 'message' } }).config.mode).toBe('message');
    expect(feishu.fromEnv({}, { env: { ...ENV, FEISHU_CARD_MODE: 'cardkit' } }).config.mode).toBe('cardkit');
    expect(() => feishu.fromEnv({}, { env: { ...ENV, FEISHU_CARD_MODE: 'stream' } })).toThrow(/^feishu mode \(FEISHU_CARD_MODE\) = "stream" /);
  });

  it('lists its variables as data, the required ones first', () => {
    expect(FEISHU_ENV_VARIABLES.map((variable) => `${variable.name}${variable.required ? '' : '?'}`)).toEqual([
      'FEISHU_APP_ID',
      'FEISHU_APP_SECRET',
      'FEISHU_CHAT_ID',
      'FEISHU_DOMAIN?',
      'FEISHU_CARD_MODE?',
      'FEISHU_CALLBACKS?',
      'FEISHU_CALLBACK_VERIFICATION_TOKEN?',
      'FEISHU_CALLBACK_ENCRYPT_KEY?',
    ]);
  });
});

describe('FEISHU_CALLBACKS', () => {
  const env = { FEISHU_APP_ID: 'cli_a1b2c3', FEISHU_APP_SECRET: 's', FEISHU_CHAT_ID: 'oc_team' };
  it('long-connection and http:<port> turn card buttons on', () => {
    expect(feishu.fromEnv({}, { env: { ...env, FEISHU_CALLBACKS: 'long-connection' } }).config.callbacks).toEqual({ mode: 'long-connection' });
    expect(feishu.fromEnv({}, { env: { ...env, FEISHU_CALLBACKS: 'http:8080' } }).config.callbacks).toMatchObject({ mode: 'http', port: 8080, path: '/feishu/card-callback' });
  });
  it('anything else is refused naming the variable and the value', () => {
    expect(() => feishu.fromEnv({}, { env: { ...env, FEISHU_CALLBACKS: 'webhook' } })).toThrow(/FEISHU_CALLBACKS.*webhook/);
  });
  it('http:<port> takes the verification token and encrypt key from FEISHU_CALLBACK_VERIFICATION_TOKEN / FEISHU_CALLBACK_ENCRYPT_KEY', () => {
    const plugin = feishu.fromEnv({}, { env: { ...env, FEISHU_CALLBACKS: 'http:8080', FEISHU_CALLBACK_VERIFICATION_TOKEN: 'v-token', FEISHU_CALLBACK_ENCRYPT_KEY: 'e-key' } });
    expect(plugin.config.callbacks).toMatchObject({ mode: 'http', port: 8080, verificationToken: '<hidden>', encryptKey: '<hidden>' });
    expect(plugin.interaction!.warnings).toEqual([]);
  });
  it('a callback secret without FEISHU_CALLBACKS is refused naming both variables, never showing the secret', () => {
    const attempt = () => feishu.fromEnv({}, { env: { ...env, FEISHU_CALLBACK_ENCRYPT_KEY: 'e-key' } });
    expect(attempt).toThrow(/FEISHU_CALLBACK_ENCRYPT_KEY.*<hidden>.*needs FEISHU_CALLBACKS/);
    expect(attempt).not.toThrow(/e-key/);
  });
});
