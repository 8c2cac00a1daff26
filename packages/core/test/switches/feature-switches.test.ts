import { describe, expect, it } from 'vitest';
import { ChannelConfigError, type FooterFields } from '../../src/index.js';
import { formatFooter, resolveFeatureSwitches } from '../../src/plugin/index.js';

describe('resolveFeatureSwitches', () => {
  it('leaves everything as before when nothing is set, with the completion ping on for a pushed-up card', () => {
    expect(resolveFeatureSwitches('feishu', {}, { env: {} })).toEqual({
      progressive: true,
      footerStyle: 'compact',
      cardPer: 'run',
      completionPing: { afterMs: Number.POSITIVE_INFINITY, onCancelled: false, pushedUpBy: 3 },
    });
  });

  it('reads the switch fields of a config and ignores its other fields', () => {
    const switches = resolveFeatureSwitches('feishu', { appId: 'x', progressive: false, cardPer: 'turn', toolFoldAfter: 5, locale: 'en' }, { env: {} });
    expect(switches).toMatchObject({ progressive: false, cardPer: 'turn', toolFoldAfter: 5, locale: 'en' });
  });

  it('lets the environment win over the config, so one variable and a restart roll a behaviour back', () => {
    const env = { FEISHU_CARD_PROGRESSIVE: 'off', FEISHU_CARD_FOOTER_FIELDS: 'duration, time', FEISHU_CARD_LANG: 'zh', FEISHU_CARD_COMPLETION_PING_MS: '120000' };
    const switches = resolveFeatureSwitches('feishu', { progressive: true, locale: 'en' }, { env });
    expect(switches).toMatchObject({ progressive: false, footerFields: ['duration', 'time'], locale: 'zh-CN', completionPing: { afterMs: 120_000, onCancelled: false } });
    // Another channel's variables do not apply.
    expect(resolveFeatureSwitches('dingtalk', {}, { env }).progressive).toBe(true);
  });

  it('turns the ping off with COMPLETION_PING_MS=off even when the config has one', () => {
    const switches = resolveFeatureSwitches('feishu', { completionPing: { afterMs: 1000 } }, { env: { FEISHU_CARD_COMPLETION_PING_MS: 'off' } });
    expect(switches.completionPing).toBeUndefined();
  });

  it('names the variable and the value of a bad environment switch', () => {
    expect(() => resolveFeatureSwitches('feishu', {}, { env: { FEISHU_CARD_PROGRESSIVE: 'maybe' } })).toThrow(
      'feishu progressive (FEISHU_CARD_PROGRESSIVE) = "maybe" (expected on or off)',
    );
    expect(() => resolveFeatureSwitches('feishu', {}, { env: { FEISHU_CARD_FOOTER_STYLE: 'fancy' } })).toThrow(/footerStyle \(FEISHU_CARD_FOOTER_STYLE\) = "fancy"/);
  });

  it('names the field and value of a bad config switch, with the plugin\'s error class', () => {
    class MyError extends ChannelConfigError {}
    const run = () => resolveFeatureSwitches('feishu', { toolFoldAfter: 0 }, { env: {}, error: (...args) => new MyError(...args) });
    expect(run).toThrow(MyError);
    expect(run).toThrow(/feishu toolFoldAfter = 0/);
  });
});

describe('footer fields', () => {
  const fields: FooterFields = {
    durationMs: 65_000,
    model: 'model-x',
    inputTokens: 12_800,
    outputTokens: 1100,
    contextTokens: 34_000,
    contextWindow: 100_000,
    contextPercent: 34,
    toolCount: 4,
    sentAt: Date.UTC(2026, 0, 1, 20, 55),
  };

  it('shows only the fields asked for, in footer order', () => {
    expect(formatFooter(fields, { style: 'compact', locale: 'en', timeZone: 'UTC' })).toBe('1m 5s · model-x · in 12.8k / out 1.1k · ctx 34% · 20:55');
    expect(formatFooter(fields, { style: 'compact', locale: 'en', timeZone: 'UTC', fields: ['time', 'duration'] })).toBe('1m 5s · 20:55');
    expect(formatFooter(fields, { style: 'compact', locale: 'en', timeZone: 'UTC', fields: ['model', 'tools'] })).toBe('model-x · tools 4');
  });
});
