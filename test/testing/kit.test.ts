/** The testing kit `@progresscard/core/testing` itself. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel } from '@progresscard/core';
import { faultCase, fakeTime, parseFaultCases, playEvents, recordingLogger, viewAfterEvents, DEFAULT_SCRIPT_START } from '@progresscard/core/testing';

afterEach(() => vi.useRealTimers());

const script = [
  { type: 'run.started', at: 0, title: 'Refactor parser' },
  { type: 'tool.started', at: 20, callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
  { type: 'tool.finished', at: 4000, callId: 'c1', summary: '212 passed' },
  { type: 'answer.delta', at: 4100, text: 'All tests pass.' },
  { type: 'run.completed', at: 4400 },
];

describe('playEvents', () => {
  it('pushes each event at its offset on fake time and returns what each push returned', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const time = fakeTime(vi);
    const pushed: Array<{ at: number; now: number }> = [];
    const results = await playEvents({ push: (e: unknown) => pushed.push({ at: (e as { at: number }).at, now: Date.now() }) }, script, time);
    const t0 = Date.UTC(2026, 0, 1);
    expect(pushed).toEqual(script.map((e) => ({ at: t0 + e.at, now: t0 + e.at })));
    expect(results).toEqual([1, 2, 3, 4, 5]);
  });

  it('drives a real card to its final on the memory channel', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const time = fakeTime(vi);
    const channel = memoryChannel();
    const cards = createProgressCards({ channels: [channel], logger: recordingLogger(), env: {} });
    const card = cards.open('memory');
    expect((await playEvents(card, script, time)).every((r) => r.accepted)).toBe(true);
    await time.advance(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'All tests pass.' });
  });

  it('names the event whose offset is not a number of ms', async () => {
    await expect(playEvents({ push: () => undefined }, [{ type: 'run.started', at: -1 }], { now: () => 0, advance: async () => {} })).rejects.toThrow(
      /event #1 \(run\.started\): at must be/,
    );
  });
});

describe('viewAfterEvents', () => {
  it('is the card state after the script, looked at when asked', () => {
    const running = viewAfterEvents(script.slice(0, 2), { lookAtMs: 5020, locale: 'en' });
    expect(running.status).toBe('running');
    expect(running.elapsedMs).toBe(5020);
    const done = viewAfterEvents(script);
    expect(done).toMatchObject({ status: 'completed', answer: 'All tests pass.' });
    expect(done.elapsedMs).toBe(4400);
  });

  it('rejects an event that is not an agent event, naming the field', () => {
    expect(() => viewAfterEvents([{ type: 'tool.started', at: 0, name: 'shell' }], { startAt: DEFAULT_SCRIPT_START })).toThrow(/callId/);
  });
});

describe('recordingLogger', () => {
  it('keeps every line with its level and fields', () => {
    const logger = recordingLogger();
    logger.warn('update failed', { status: 500 });
    logger.debug('tick');
    expect(logger.lines).toEqual(['warn update failed {"status":500}', 'debug tick']);
    expect(logger.at('warn')).toEqual([{ level: 'warn', message: 'update failed', fields: { status: 500 } }]);
  });
});

describe('fault cases', () => {
  const line = (c: Record<string, unknown>) => JSON.stringify({ id: 'F01', kind: 'k', channel: 'feishu', events: [{ type: 'run.started', at: 0 }], platform: [], expect: ['x'], ...c });

  it('reads cases by id, lone surrogates as written', () => {
    const cases = parseFaultCases(`${line({})}\n\n${line({ id: 'F12', events: [{ type: 'answer.delta', at: 5, text: '\ud83d' }] })}\n`);
    expect([...cases.keys()]).toEqual(['F01', 'F12']);
    expect(faultCase(cases, 'F12').events[0]).toEqual({ type: 'answer.delta', at: 5, text: '\ud83d' });
    expect(() => faultCase(cases, 'F99')).toThrow(/no fault case F99 \(there are F01, F12\)/);
  });

  it('names the line and field of a malformed case', () => {
    expect(() => parseFaultCases(line({ events: [{ type: 'run.started' }] }), 'faults.jsonl')).toThrow(/faults\.jsonl line 1: events\[0\]\.at must be/);
    expect(() => parseFaultCases(`${line({})}\n${line({})}`)).toThrow(/line 2: repeated case id F01/);
    expect(() => parseFaultCases('{oops')).toThrow(/line 1: invalid JSON/);
  });
});
