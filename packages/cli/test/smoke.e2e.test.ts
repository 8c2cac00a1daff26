import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_IDS, channelDescriptor, findChromium, main, runSmokeScenario, SMOKE_SCENARIOS, type SmokeResult } from '../src/index.js';
import { memoryIO } from './helpers.js';

async function browserAvailable(): Promise<boolean> {
  try {
    await findChromium();
    return true;
  } catch {
    return false;
  }
}

describe('progresscard smoke', () => {
  it('passes the whole matrix on every channel\'s emulator and writes payloads, preview.html, PNGs and result.json', async () => {
    const out = mkdtempSync(join(tmpdir(), 'progresscard-smoke-'));
    const { io, err } = memoryIO({});
    const code = await main(['smoke', '--out', out], io);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as SmokeResult;
    expect(result.results.filter((r) => !r.ok)).toEqual([]);
    expect(code).toBe(0);
    expect(result.results).toHaveLength(SMOKE_SCENARIOS.length * CHANNEL_IDS.length);
    for (const channel of CHANNEL_IDS) {
      const long = JSON.parse(readFileSync(join(out, channel, 'long-analysis.json'), 'utf8')) as { payloads: unknown[] };
      expect(long.payloads.length).toBeGreaterThanOrEqual(1);
    }
    // DingTalk's 2500-code-point cap: the long analysis continues in follow-up cards.
    expect((JSON.parse(readFileSync(join(out, 'dingtalk', 'long-analysis.json'), 'utf8')) as { payloads: unknown[] }).payloads.length).toBeGreaterThan(1);
    const preview = readFileSync(join(out, 'preview.html'), 'utf8');
    for (const scenario of SMOKE_SCENARIOS) expect(preview).toContain(`id="scenario-${scenario.id}"`);
    if (await browserAvailable()) {
      expect(result.screenshots.files).toContain('png/tool-calls.png');
      expect(existsSync(join(out, 'png', 'tool-calls.png'))).toBe(true);
    } else {
      expect(result.screenshots.note).toMatch(/^no screenshots/);
      expect(err()).toContain('no screenshots');
    }
    // Seven channels × every scenario, one after the other: on a loaded machine one channel took 56–96 s alone.
  }, 300_000);

  it('fails a scenario whose cards miss what a user must see, or show text twice, naming why', async () => {
    const base = SMOKE_SCENARIOS.find((s) => s.id === 'streamed-final')!;
    const broken = { ...base, expect: [...base.expect, 'never on the card'], once: ['of the answer'] };
    const outcome = await runSmokeScenario(channelDescriptor('feishu'), broken, { kind: 'emulator' });
    expect(outcome.ok).toBe(false);
    expect(outcome.reasons).toEqual(['missing "never on the card"', '"of the answer" shows 3 times on the main card, not once']);
  });

  it('refuses an unknown scenario id before running anything', async () => {
    const { io, err } = memoryIO({});
    expect(await main(['smoke', '--out', mkdtempSync(join(tmpdir(), 'progresscard-smoke-')), '--scenario', 'no-such'], io)).toBe(2);
    expect(err()).toContain('unknown scenario no-such');
  });
});
