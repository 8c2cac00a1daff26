import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FEISHU_DEFAULTS, FeishuConfigError } from '../src/config.js';
import { feishu } from '../src/index.js';

const SECRET = 'super-secret-value-123';
const base = { appId: 'cli_abc', appSecret: SECRET, receiveId: 'oc_team' };

describe('feishu config', () => {
  it('fills the documented defaults', () => {
    expect(feishu.parseConfig(base)).toMatchObject({
      domain: 'feishu',
      receiveIdType: 'chat_id',
      replyInThread: false,
      requestTimeoutMs: 10_000,
      overflow: 'follow-up',
      mode: 'cardkit',
    });
    const plugin = feishu(base, { env: {} });
    // Feature switches at their defaults: progressive updates, compact footer, one card per run, and a
    // completion reply once 3 messages have pushed the card up (never by run time alone).
    expect(plugin.switches).toEqual({ progressive: true, footerStyle: 'compact', cardPer: 'run', completionPing: { afterMs: Number.POSITIVE_INFINITY, onCancelled: false, pushedUpBy: 3 } });
    expect(plugin.id).toBe('feishu');
    expect(plugin.defaults).toEqual({
      tickMs: 3000,
      budget: [{ limit: 50, intervalMs: 1000 }, { limit: 1000, intervalMs: 60_000 }],
      perCardIntervalMs: 250,
      // CardKit (the default mode) releases text every second: the client types each piece out.
      debounceMs: 1000,
    });
    expect(feishu({ ...base, mode: 'message' }, { env: {} }).defaults).toMatchObject({ debounceMs: 2500 });
    expect(plugin.overrides).toEqual({});
    expect(FEISHU_DEFAULTS.tickMs).toBe(3000);
  });

  it('puts timing options into overrides', () => {
    const plugin = feishu({ ...base, tickMs: 1000, perCardIntervalMs: 500, debounceMs: 100, budget: [{ limit: 10, intervalMs: 1000 }] });
    expect(plugin.overrides).toEqual({ tickMs: 1000, perCardIntervalMs: 500, debounceMs: 100, budget: [{ limit: 10, intervalMs: 1000 }] });
  });

  it('accepts feishu, lark and URLs as domain', () => {
    expect(feishu.parseConfig({ ...base, domain: 'lark' }).domain).toBe('lark');
    expect(feishu.parseConfig({ ...base, domain: 'http://127.0.0.1:3000' }).domain).toBe('http://127.0.0.1:3000');
    expect(() => feishu.parseConfig({ ...base, domain: 'open.feishu.cn' })).toThrow(/domain = "open.feishu.cn"/);
  });

  it.each([
    [{ ...base, receiveIdType: 'chat' }, 'receiveIdType', /receiveIdType = "chat"/],
    [{ ...base, appId: '' }, 'appId', /appId = ""/],
    [{ ...base, tickMs: -5 }, 'tickMs', /tickMs = -5/],
    [{ ...base, budget: [{ limit: 0, intervalMs: 1000 }] }, 'budget.0.limit', /budget\.0\.limit = 0/],
    [{ ...base, locale: 'fr' }, 'locale', /locale = "fr"/],
    [{ ...base, footerStyle: 'verbose' }, 'footerStyle', /footerStyle = "verbose"/],
    [{ ...base, recieveId: 'oc_x' }, 'recieveId', /recieveId = <hidden> \(unknown field\)/],
    [{ ...base, timeZone: 'Mars/Base' }, 'timeZone', /timeZone = "Mars\/Base"/],
  ])('names the bad field and its value: %o', (input, field, message) => {
    try {
      feishu(input as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FeishuConfigError);
      expect((error as FeishuConfigError).field).toBe(field);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('never shows the secret, in errors or on the plugin', () => {
    expect(() => feishu({ ...base, appSecret: 42 } as never)).toThrow(/appSecret = <hidden>/);
    try {
      feishu({ ...base, appSecret: SECRET, footerStyle: 'x' } as never);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(SECRET);
    }
    const plugin = feishu(base);
    expect(JSON.stringify(plugin.config)).not.toContain(SECRET);
    expect(JSON.stringify(plugin)).not.toContain(SECRET);
    expect(inspect(plugin, { depth: 10 })).not.toContain(SECRET);
  });

  it('names its app by the app id (stored with each card for app pools), never by the secret', () => {
    const plugin = feishu({ ...base, appSecret: SECRET });
    expect(plugin.appIdentity).toBe(base.appId);
    expect(plugin.appIdentity).not.toContain(SECRET);
  });
});
