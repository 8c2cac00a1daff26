import { afterEach, describe, expect, it } from 'vitest';
import {
  CHANNEL_IDS,
  EXIT,
  emulatedPlugins,
  feishuChannel,
  loadTrace,
  main,
  replayTickMs,
  replayTrace,
  startEmulators,
  summarize,
  formatSummary,
  type Emulators,
} from '../src/index.js';
import { fixture, memoryIO } from './helpers.js';

/** Seconds of every `shell: \`npm test\`（执行中 · N 秒）` line in the cards Feishu accepted, in order. */
function acceptedShellDurations(emulators: Emulators): number[] {
  const out: number[] = [];
  for (const call of emulators.emulator(feishuChannel)!.calls({ outcome: 'accepted' })) {
    const match = /shell: `npm test`（执行中 · (\d+) 秒）/.exec(JSON.stringify(call.card ?? ''));
    if (match) out.push(Number(match[1]));
  }
  return out;
}

describe('replay engine', () => {
  let emulators: Emulators | undefined;
  afterEach(async () => {
    await emulators?.close();
    emulators = undefined;
  });

  it('replays to the Feishu emulator over loopback: the tool line runs, the card completes', async () => {
    // Timing (speed, ticks) is asserted on fake time in replay-timing.test.ts; here only what the platform accepted.
    const trace = await loadTrace(fixture('short-run.events.jsonl'), 'short-run');
    emulators = await startEmulators(['feishu']);
    // Speed 2: the shell tool runs 6 s of wall time, so its running line reaches the emulator even when a
    // busy machine delays the card's first send by seconds (at speed 8 it ran 1.5 s and was missed).
    const result = await replayTrace({ trace, speed: 2, channels: emulatedPlugins(emulators, { tickMs: replayTickMs(2) }) });
    expect(result.cards.map((c) => [c.channel, c.status, c.final?.ok])).toEqual([['feishu', 'completed', true]]);
    expect(result.cards[0]!.view.elapsedMs).toBe(15_000);
    const seen = acceptedShellDurations(emulators);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(Math.max(...seen)).toBeLessThanOrEqual(12);
  }, 60_000);

  it('stops on Ctrl-C: running cards end as cancelled and the exit code is 130', async () => {
    const t = memoryIO();
    const run = main(['replay', fixture('short-run.events.jsonl'), '--json', '--speed', '1'], t.io);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    t.abort();
    expect(await run).toBe(EXIT.interrupted);
    const parsed = JSON.parse(t.out()) as { ok: boolean; summary: { interrupted: boolean; channels: Array<{ statuses: string[] }> }; cards: Array<{ status: string; delivered: boolean }> };
    expect(parsed.ok).toBe(false);
    expect(parsed.summary.interrupted).toBe(true);
    // one card per channel, each ended cancelled and delivered
    expect(parsed.cards.map((c) => [c.status, c.delivered])).toEqual(CHANNEL_IDS.map(() => ['cancelled', true]));
  }, 30_000);

  it('shows the cards in English with --lang en', async () => {
    const t = memoryIO();
    expect(await main(['replay', fixture('short-run.events.jsonl'), '--json', '--speed', '30', '--lang', 'en'], t.io)).toBe(EXIT.ok);
    const parsed = JSON.parse(t.out()) as { cards: Array<{ channel: string; payload: unknown }> };
    const text = JSON.stringify(parsed.cards.map((c) => c.payload));
    expect(text).toContain('Completed');
    expect(text).not.toContain('已完成');
  }, 30_000);

  it('reports a channel as failed when its final state never reached the platform', async () => {
    // The trace says completed, but the Feishu emulator answers every card call with a 500.
    const trace = await loadTrace(fixture('short-run.events.jsonl'), 'short-run');
    emulators = await startEmulators(['feishu']);
    for (const route of ['im.message.create', 'im.message.patch', 'cardkit.card.create', 'cardkit.card.update', 'cardkit.card.settings', 'cardkit.element.content']) {
      emulators.emulator(feishuChannel)!.faults.add({ route, respond: { status: 500, body: { code: 500, msg: 'injected outage' } } });
    }
    const result = await replayTrace({ trace, speed: 30, channels: emulatedPlugins(emulators, { tickMs: replayTickMs(30) }), finalTimeoutMs: 4_000 });
    expect(result.cards[0]!.status).toBe('completed');
    expect(result.cards[0]!.final?.ok).not.toBe(true);
    const summary = summarize(trace, result, { speed: 30, tickMs: 250 }, (id) => emulators!.sources.find((s) => s.id === id)?.counts());
    expect(summary.ok).toBe(false);
    expect(summary.channels[0]).toMatchObject({ channel: 'feishu', ok: false, countsFrom: 'emulator' });
    expect(summary.channels[0]!.rejected).toBeGreaterThan(0);
    expect(summary.channels[0]!.rejected).toBe(summary.channels[0]!.calls);
    expect(formatSummary(summary)).toMatch(/✗ feishu/);
  }, 30_000);
});
