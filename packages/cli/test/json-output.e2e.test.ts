import { describe, expect, it } from 'vitest';
import { EXIT, main, type FinalCardJson, type ReplaySummary } from '../src/index.js';
import { fixture, memoryIO } from './helpers.js';

interface JsonOutput {
  ok: boolean;
  exitCode: number;
  summary: ReplaySummary;
  cards: FinalCardJson[];
}

describe('replay --json', () => {
  it('prints only the summary and the final card payloads on stdout', async () => {
    const t = memoryIO();
    const code = await main(['replay', fixture('short-run.events.jsonl'), '--json', '--speed', '30'], t.io);
    expect(code, t.err()).toBe(EXIT.ok);
    const parsed = JSON.parse(t.out()) as JsonOutput; // throws if anything else was printed
    expect(parsed.ok).toBe(true);
    expect(parsed.exitCode).toBe(0);
    expect(parsed.summary.trace).toMatchObject({ name: 'short-run.events.jsonl', format: 'events', events: 12, runs: 1, spanMs: 15_000 });
    expect(parsed.summary.speed).toBe(30);
    expect(parsed.summary.channels.map((c) => [c.channel, c.statuses, c.ok])).toEqual([
      ['feishu', ['completed'], true],
      ['dingtalk', ['completed'], true],
      ['slack', ['completed'], true],
      ['telegram', ['completed'], true],
      ['discord', ['completed'], true],
      ['wecom', ['completed'], true],
      ['teams', ['completed'], true],
    ]);
    for (const channel of parsed.summary.channels) {
      // Read back from the emulator's call history. The run is sped up 30 times (0.5 s of wall time), so
      // on a busy machine it can end before a card's first send, which then carries the final (and
      // WeCom pulls, a poll a second): at least that one call.
      expect(channel.calls, channel.channel).toBeGreaterThanOrEqual(1);
      expect(channel.countsFrom).toBe('emulator');
      expect(channel.elapsedMs).toBe(15_000);
    }

    const feishu = parsed.cards.find((c) => c.channel === 'feishu')!;
    expect(feishu).toMatchObject({ status: 'completed', expected: 'completed', delivered: true, payloadSource: 'emulator' });
    const card = feishu.payload as { schema: string; header: { template: string; title: { content: string } } };
    expect(card.schema).toBe('2.0');
    expect(card.header.template).toBe('green');
    expect(card.header.title.content).toBe('Fix the flaky test');
    expect(JSON.stringify(card)).toContain('race');

    const dingtalk = parsed.cards.find((c) => c.channel === 'dingtalk')!;
    expect(dingtalk).toMatchObject({ status: 'completed', delivered: true, payloadSource: 'emulator' });
    const data = dingtalk.payload as { cardParamMap: Record<string, string>; state: string };
    expect(data.state).toBe('finished');
    expect(data.cardParamMap.msgTitle).toBe('Fix the flaky test');
    expect(data.cardParamMap.msgContent).toContain('race');

    const teams = parsed.cards.find((c) => c.channel === 'teams')!;
    expect(teams).toMatchObject({ status: 'completed', delivered: true, payloadSource: 'emulator' });
    expect(JSON.stringify(teams.payload)).toContain('✅ **Completed** · Fix the flaky test');
  }, 30_000);

  it('replays to one channel only with --channel', async () => {
    const t = memoryIO();
    expect(await main(['replay', fixture('short-run.events.jsonl'), '--json', '--speed', '30', '--channel', 'dingtalk'], t.io)).toBe(EXIT.ok);
    const parsed = JSON.parse(t.out()) as JsonOutput;
    expect(parsed.cards.map((c) => c.channel)).toEqual(['dingtalk']);
  }, 30_000);
});

describe('malformed trace lines', () => {
  it('warns with the line number and replays the rest', async () => {
    const t = memoryIO();
    const code = await main(['replay', fixture('malformed.events.jsonl'), '--json', '--speed', '30'], t.io);
    expect(code).toBe(EXIT.ok);
    expect(t.err()).toMatch(/warning: malformed\.events\.jsonl line 5: invalid JSON/);
    expect(t.err()).toMatch(/warning: malformed\.events\.jsonl line 8: invalid agent event: tool\.started\.callId/);
    const parsed = JSON.parse(t.out()) as JsonOutput;
    expect(parsed.summary.trace.events).toBe(12);
    expect(parsed.summary.trace.warnings).toHaveLength(2);
    expect(parsed.summary.channels.every((c) => c.statuses[0] === 'completed')).toBe(true);
  }, 30_000);
});
