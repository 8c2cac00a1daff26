import { describe, expect, it } from 'vitest';
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

  it('a NaN is shown as NaN, not as null', () => {
    expect(() => feishu({ ...base, perCardIntervalMs: Number.NaN })).toThrow('perCardIntervalMs = NaN');
  });
});
