import { describe, expect, it } from 'vitest';
import { DINGTALK_DEFAULTS, DingTalkConfigError, dingtalk } from '../src/index.js';

const base = { appKey: 'dingkey', appSecret: 'shh-secret', cardTemplateId: 'tpl.schema' };

describe('DingTalk config', () => {
  it('applies defaults: api.dingtalk.com, compact footer, 2500 code points, streaming content, robotCode = appKey', () => {
    const plugin = dingtalk(base);
    expect(plugin.id).toBe('dingtalk');
    expect(plugin.switches).toMatchObject({ footerStyle: 'compact', progressive: true });
    expect(plugin.config).toMatchObject({ baseUrl: 'https://api.dingtalk.com', maxContentChars: 2500, contentMode: 'streaming', failedState: 'finished', appSecret: '<hidden>' });
    expect(plugin.defaults).toEqual({ tickMs: 3000, budget: [{ limit: 20, intervalMs: 1000 }], perCardIntervalMs: 500, debounceMs: 2500 });
    expect(plugin.defaults).toBe(DINGTALK_DEFAULTS);
    expect(plugin.overrides).toEqual({});
  });

  it('puts tickMs, budget, perCardIntervalMs and debounceMs into overrides', () => {
    const plugin = dingtalk({ ...base, tickMs: 1500, budget: [{ limit: 10, intervalMs: 1000 }], perCardIntervalMs: 800, debounceMs: 1000 });
    expect(plugin.overrides).toEqual({ tickMs: 1500, budget: [{ limit: 10, intervalMs: 1000 }], perCardIntervalMs: 800, debounceMs: 1000 });
  });

  it.each([
    [{ ...base, appKey: '' }, 'appKey', /dingtalk appKey = ""/],
    [{ ...base, cardTemplateId: undefined }, 'cardTemplateId', /cardTemplateId = undefined \(missing\)/],
    [{ ...base, baseUrl: 'ftp://x' }, 'baseUrl', /baseUrl = "ftp:\/\/x" \(must be an http\(s\) URL\)/],
    [{ ...base, baseUrl: 'https://bot:hunter2@api.example' }, 'baseUrl', /baseUrl = "https:\/\/<hidden>@api\.example" \(must not carry a user name or password/],
    [{ ...base, target: { type: 'channel', id: 'x' } }, 'target.type', /target\.type = "channel"/],
    [{ ...base, target: { type: 'group', openConversationId: ' ' } }, 'target.openConversationId', /target\.openConversationId = " "/],
    [{ ...base, tickMs: 0 }, 'tickMs', /tickMs = 0/],
    [{ ...base, locale: 'fr' }, 'locale', /locale = "fr"/],
    [{ ...base, timeZone: 'Mars/Olympus' }, 'timeZone', /timeZone = "Mars\/Olympus" \(must be an IANA time zone\)/],
    [{ ...base, budget: [{ limit: 0, intervalMs: 1000 }] }, 'budget.0.limit', /budget\.0\.limit = 0/],
  ])('names the bad field and value: %j', (config, field, message) => {
    let error: unknown;
    try {
      dingtalk.parseConfig(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DingTalkConfigError);
    expect((error as DingTalkConfigError).field).toBe(field);
    expect(String(error)).toMatch(message);
  });

  it.each([
    [{ ...base, apisecret: 'VALUE-do-not-log' }, 'apisecret'],
    [{ ...base, templateKeys: { titel: 'VALUE-do-not-log' } }, 'templateKeys.titel'],
  ])('refuses an unknown (misspelled) field, naming it without its value: %j', (config, field) => {
    let error: unknown;
    try {
      dingtalk(config as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DingTalkConfigError);
    expect((error as DingTalkConfigError).field).toBe(field);
    expect(String(error)).toContain(`dingtalk ${field} = <hidden> (unknown field)`);
    expect(String(error)).not.toContain('VALUE-do-not-log');
  });

  it('never shows the secret', () => {
    expect(() => dingtalk({ ...base, appSecret: 42 as unknown as string })).toThrow(/appSecret = <hidden>/);
    expect(() => dingtalk({ ...base, appSecret: 42 as unknown as string })).not.toThrow(/42/);
    expect(JSON.stringify(dingtalk(base).config)).not.toContain('shh-secret');
    expect(() => dingtalk({ ...base, appSecret: undefined as unknown as string })).toThrow(/appSecret = undefined \(missing\)/);
  });
});
