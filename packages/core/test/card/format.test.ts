import { describe, expect, it } from 'vitest';
import { formatDuration, formatFooter, formatTokenCount, toolLineText } from '../../src/plugin/index.js';
import { toolDetail } from '../../src/index.js';

describe('formatDuration', () => {
  it.each([
    [45_000, '45 秒', '45s'],
    [506_000, '8 分 26 秒', '8m 26s'],
    [60_000, '1 分', '1m'],
    [3_720_000, '1 小时 2 分', '1h 2m'],
    [3_600_000, '1 小时', '1h'],
    [3_725_999, '1 小时 2 分', '1h 2m'],
    [999, '0 秒', '0s'],
    [90_000, '1 分 30 秒', '1m 30s'],
  ])('%i ms → %s / %s', (ms, zh, en) => {
    expect(formatDuration(ms, 'zh-CN')).toBe(zh);
    expect(formatDuration(ms, 'en')).toBe(en);
  });
});

describe('tool lines', () => {
  it('shows the shell command and the running time from 1 s on', () => {
    const line = { name: 'shell', detail: toolDetail('{"command":"npm test"}'), state: 'running' as const };
    expect(toolLineText({ ...line, elapsedMs: 3000 }, 'zh-CN')).toBe('shell: `npm test`（执行中 · 3 秒）');
    expect(toolLineText({ ...line, elapsedMs: 999 }, 'zh-CN')).toBe('shell: `npm test`（执行中）');
    expect(toolLineText({ ...line, elapsedMs: 3000 }, 'en')).toBe('shell: `npm test` (running · 3s)');
  });

  it('shows a tool without detail as name：执行中…（duration）', () => {
    const line = { name: 'read_file', detail: '', state: 'running' as const, elapsedMs: 90_000 };
    expect(toolLineText(line, 'zh-CN')).toBe('read_file：执行中…（1 分 30 秒）');
    expect(toolLineText(line, 'en')).toBe('read_file: running… (1m 30s)');
  });

  it('shows a finished tool with its summary and no duration', () => {
    const text = toolLineText({ name: 'shell', detail: 'npm test', state: 'finished', summary: '212 passed\nmore', elapsedMs: 0 }, 'zh-CN');
    expect(text).toBe('shell: `npm test`（完成 · 212 passed）');
    expect(text).not.toMatch(/秒/);
  });

  it('finds the detail in partial JSON, objects and codex argv', () => {
    expect(toolDetail('{"command":"npm te')).toBe('npm te');
    expect(toolDetail({ file_path: 'src/a.ts' })).toBe('src/a.ts');
    expect(toolDetail({ command: ['bash', '-lc', 'npm test'] })).toBe('npm test');
    expect(toolDetail('{"unrelated":1}')).toBe('');
    expect(toolDetail('{"command":"echo `x`"}')).toBe("echo 'x'");
  });
});

describe('footer', () => {
  const fields = {
    durationMs: 11_400, model: 'model-x', inputTokens: 12_800, outputTokens: 1_100,
    contextTokens: 68_000, contextWindow: 200_000, contextPercent: 34, toolCount: 4,
    sentAt: Date.UTC(2026, 0, 1, 20, 55),
  };
  it('compact style', () => {
    expect(formatFooter(fields, { style: 'compact', locale: 'en', timeZone: 'UTC' })).toBe('11s · model-x · in 12.8k / out 1.1k · ctx 34% · 20:55');
    expect(formatFooter(fields, { style: 'compact', locale: 'zh-CN', timeZone: 'UTC' })).toBe('11 秒 · model-x · 输入 12.8k / 输出 1.1k · 上下文 34% · 20:55');
  });
  it('debug style has exact numbers and the tool count', () => {
    expect(formatFooter(fields, { style: 'debug', locale: 'en', timeZone: 'UTC' })).toBe(
      '11400 ms · model-x · in 12,800 / out 1,100 · ctx 34% (68,000/200,000) · tools 4 · 20:55',
    );
  });
  it('leaves unknown fields out', () => {
    expect(formatFooter({ durationMs: 2000, toolCount: 0, sentAt: Date.UTC(2026, 0, 1, 9, 5) }, { style: 'compact', locale: 'en', timeZone: 'UTC' })).toBe('2s · 09:05');
  });
  it('token counts', () => {
    expect([950, 12_800, 100_000, 1_250_000].map(formatTokenCount)).toEqual(['950', '12.8k', '100k', '1.3M']);
  });
});
