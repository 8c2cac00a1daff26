import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { FeishuConfigError, feishu } from '../src/index.js';

const base = { appId: 'cli_abc', appSecret: 'app-secret-1', receiveId: 'oc_team' };

/** Users pass their whole Feishu app config: its other secrets must never reach an error message. */
describe('feishu config errors never show a secret', () => {
  for (const key of ['encryptKey', 'verificationToken', 'app_secret']) {
    it(`an unknown field such as ${key} is named, its value is not shown`, () => {
      const value = `${key}-VALUE-do-not-log`;
      let error: unknown;
      try {
        feishu({ ...base, [key]: value } as never);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(FeishuConfigError);
      expect(String(error)).toContain(`feishu ${key} = <hidden> (unknown field)`);
      expect(String(error)).not.toContain('VALUE-do-not-log');
    });
  }

  it('a domain must be an http(s) URL, and one with credentials is refused without showing them', () => {
    expect(() => feishu({ ...base, domain: 'ftp://x' })).toThrow('feishu domain = "ftp://x" (expected feishu (open.feishu.cn, the default), lark (open.larksuite.com) or an http(s) base URL');
    for (const domain of ['https://user:PASSWORD-do-not-log@open.feishu.example', 'http://user:PASSWORD-do-not-log@[bad']) {
      const attempt = () => feishu({ ...base, domain });
      expect(attempt).toThrow(FeishuConfigError);
      expect(attempt).toThrow(/^feishu domain = "https?:\/\/<hidden>@/);
      try {
        attempt();
      } catch (error) {
        expect(`${String(error)}\n${(error as Error).stack}\n${inspect(error, { depth: 6 })}`).not.toContain('PASSWORD-do-not-log');
      }
    }
    // The same from the environment, with the variable named.
    const env = { FEISHU_APP_ID: 'cli_abc', FEISHU_APP_SECRET: 's', FEISHU_CHAT_ID: 'oc_team', FEISHU_DOMAIN: 'https://u:PASSWORD-do-not-log@x.example' };
    expect(() => feishu.fromEnv({}, { env })).toThrow('feishu domain (FEISHU_DOMAIN) = "https://<hidden>@x.example" (must not carry a user name or password');
    expect(feishu({ ...base, domain: 'http://127.0.0.1:3000' }).config.domain).toBe('http://127.0.0.1:3000');
  });

  it('a NaN is shown as NaN, not as null', () => {
    expect(() => feishu({ ...base, perCardIntervalMs: Number.NaN })).toThrow('perCardIntervalMs = NaN');
  });
});
