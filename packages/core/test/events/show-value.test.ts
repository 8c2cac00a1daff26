import { describe, expect, it } from 'vitest';
import { ChannelConfigError } from '../../src/index.js';
import { HttpUrlSchema, parseChannelConfig, showValue } from '../../src/plugin/index.js';
import { z } from 'zod';

describe('values in error messages never show credentials inside URLs', () => {
  it.each([
    ['https://user:hunter2@host.example/api', '"https://<hidden>@host.example/api"'],
    ['https://user:p@ss@host.example', '"https://<hidden>@host.example"'],
    ['https://user:pa/ss@host.example', '"https://<hidden>@host.example"'],
    ['redis://:hunter2@127.0.0.1:6379/0', '"redis://<hidden>@127.0.0.1:6379/0"'],
    ['https://hooks.example/x?access_token=hunter2&chat=1', '"https://hooks.example/x?access_token=<hidden>&chat=1"'],
    ['https://o.example/send?access_token=hunter2&t=1&sign=hunter3', '"https://o.example/send?access_token=<hidden>&t=1&sign=<hidden>"'],
  ])('%s', (url, shown) => {
    expect(showValue(url)).toBe(shown);
  });

  it('a signature or API key in the query is hidden, other parameters stay readable', () => {
    expect(showValue('https://x.example/send?timestamp=1&signature=hunter2')).toBe('"https://x.example/send?timestamp=1&signature=<hidden>"');
    expect(showValue('https://x.example/?api_key=hunter2&page=2')).toBe('"https://x.example/?api_key=<hidden>&page=2"');
  });

  it('a config error for a URL field names the field and hides the password, in its message, stack and inspect', () => {
    const schema = z.object({ baseUrl: HttpUrlSchema }).strict();
    let error: unknown;
    try {
      parseChannelConfig('demo', schema, { baseUrl: 'https://bot:p@ss-hunter2@api.example/v1' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ChannelConfigError);
    expect(String(error)).toMatch(/^ChannelConfigError: demo baseUrl = "https:\/\/<hidden>@api\.example\/v1" \(must not carry a user name or password/);
    expect(`${(error as Error).stack}`).not.toContain('hunter2');
  });
});
