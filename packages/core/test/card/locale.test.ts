import { describe, expect, it } from 'vitest';
import { CardState } from '../../src/index.js';
import { channelDefaultLocale, detectLocale } from '../../src/card/locale.js';
import { formatDuration } from '../../src/card/format/duration.js';

describe('card language', () => {
  it('each channel has its default: Chinese on Feishu, DingTalk and WeCom, English on Slack, Telegram, Discord and Teams', () => {
    expect(['feishu', 'dingtalk', 'wecom'].map(channelDefaultLocale)).toEqual(['zh-CN', 'zh-CN', 'zh-CN']);
    expect(['slack', 'telegram', 'discord', 'teams'].map(channelDefaultLocale)).toEqual(['en', 'en', 'en', 'en']);
    expect(channelDefaultLocale('memory')).toBe('zh-CN');
    expect(channelDefaultLocale('constructor')).toBe('zh-CN');
  });

  it('detects the language of run text: Chinese with code in it is Chinese, a Chinese name in English is English', () => {
    expect(detectLocale('修复 src/a.ts 里的 import 错误')).toBe('zh-CN');
    expect(detectLocale('Ask 张伟 to review the fix for the flaky test')).toBe('en');
    expect(detectLocale('12345 🎉')).toBeUndefined();
  });

  it('auto: the title decides, else the answer, else the channel default; core texts follow', () => {
    const titled = new CardState({ startedAt: 0, locale: 'auto', defaultLocale: 'en', title: '部署到生产环境' });
    titled.apply({ type: 'tool.started', callId: 'c1', name: 'shell', args: { command: 'npm test' } }, 0);
    expect(titled.view(90_000)).toMatchObject({ locale: 'zh-CN', tools: [{ text: 'shell: `npm test`（执行中 · 1 分 30 秒）' }] });

    const untitled = new CardState({ startedAt: 0, locale: 'auto', defaultLocale: 'zh-CN' });
    untitled.apply({ type: 'tool.started', callId: 'c1', name: 'shell', args: { command: 'npm test' } }, 0);
    expect(untitled.view(1000).locale).toBe('zh-CN');
    untitled.apply({ type: 'run.completed', answer: 'The deploy finished and the smoke tests pass.' }, 90_000);
    expect(untitled.view(90_000)).toMatchObject({ locale: 'en', tools: [{ text: 'shell: `npm test` (done)' }] });
    expect(formatDuration(90_000, 'en')).toBe('1m 30s');
  });

  it('without a setting the card speaks the channel default; a run.started locale still wins', () => {
    const state = new CardState({ startedAt: 0, defaultLocale: 'en' });
    expect(state.view(0).locale).toBe('en');
    state.apply({ type: 'run.started', locale: 'zh-CN' }, 0);
    expect(state.view(0).locale).toBe('zh-CN');
  });
});
