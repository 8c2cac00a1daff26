import { loadFaultCases } from '../../src/testing/index.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemoryPayload } from '../../src/index.js';
import { play, settle, setup } from '../helpers.js';

/** Field fault cases (copied from the shared case list) that concern the core. */
const cases = loadFaultCases(new URL('../fixtures/core-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

/** A comparable measure of how far a card has got: more lines, more finished lines, more answer. */
function progress(payload: MemoryPayload): number[] {
  const rank = { running: 0, waiting: 0, completed: 1, failed: 1, cancelled: 1 }[payload.status];
  return [rank, payload.tools.length, payload.tools.filter((t) => !t.includes('执行中')).length, payload.answer.length];
}
function notOlder(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i]! > a[i]!;
  return true;
}

describe('field fault cases (core)', () => {
  it('F02 burst of state changes on one card: one in flight, no stale state, < 5 updates/s', async () => {
    const c = cases.get('F02')!;
    const { channel, cards, t0 } = setup({ latencyMs: 400 }); // "every call takes 400 ms"
    const card = cards.open('memory');
    await play(card, c.events, t0);
    await settle(10_000);
    expect(channel.inFlight.max).toBe(1);
    const accepted = channel.calls.filter((call) => !call.failure);
    for (let i = 1; i < accepted.length; i++) expect(notOlder(progress(accepted[i - 1]!.payload), progress(accepted[i]!.payload))).toBe(true);
    const times = channel.calls.map((call) => call.at);
    for (let i = 5; i < times.length; i++) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(1000);
    expect(accepted.at(-1)!.payload).toMatchObject({ status: 'completed', answer: 'Found it: an off-by-one in the lexer.' });
  });

  it('F03 exactly one final delivery: one message, ending completed with the answer', async () => {
    const c = cases.get('F03')!;
    const { channel, cards, t0 } = setup();
    const card = cards.open('memory');
    await play(card, c.events, t0);
    await settle(30_000);
    const final = await card.finalDelivery;
    expect(channel.messages.size).toBe(1);
    expect(channel.calls.filter((call) => call.op === 'send')).toHaveLength(1);
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Three TODOs remain; the tree is clean.' });
    expect(channel.calls.filter((call) => call.payload.status === 'completed')).toHaveLength(1);
  });

  it('F04 one failed update must not silence the rest', async () => {
    const c = cases.get('F04')!;
    const { channel, cards, t0 } = setup();
    // "patch #1 -> 500", "patch #2 -> 400 {code:230001}" (invalid parameter: the payload was refused)
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 500' } });
    channel.failNext({ op: 'update', failure: { kind: 'rejected', detail: '230001 invalid request parameter' } });
    const card = cards.open('memory');
    await play(card, c.events, t0);
    await settle(30_000);
    const failures = channel.calls.filter((call) => call.failure);
    expect(failures.map((call) => call.failure)).toEqual(['transient', 'rejected']);
    const lastFailureAt = failures.at(-1)!.at;
    const ticksAfter = channel.calls.filter((call) => !call.failure && call.at > lastFailureAt && call.payload.status === 'running');
    const elapsedShown = ticksAfter.map((call) => call.payload.tools[0]).filter((text) => /\d+ 秒/.test(text ?? ''));
    expect(new Set(elapsedShown).size).toBeGreaterThanOrEqual(3);
    const last = channel.messages.get('m1')!.history.at(-1)!;
    expect(last).toMatchObject({ status: 'completed', answer: 'Waited 20 seconds.' });
    expect(last.tools[0]).not.toContain('执行中');
    expect((await card.finalDelivery).ok).toBe(true);
  });

  it('F09 no call for an unchanged card, and no ticker without tools', async () => {
    const c = cases.get('F09')!;
    const { channel, cards, t0 } = setup();
    const card = cards.open('memory');
    let tickerEverOn = false;
    const probe = {
      push(event: unknown) {
        const result = card.push(event);
        tickerEverOn ||= cards.diagnostics().tickingCards > 0;
        return result;
      },
    };
    await play(probe, c.events, t0);
    await settle(10_000);
    expect(tickerEverOn).toBe(false);
    const accepted = channel.calls.filter((call) => !call.failure).map((call) => JSON.stringify(call.payload));
    for (let i = 1; i < accepted.length; i++) expect(accepted[i]).not.toBe(accepted[i - 1]);
    // run.started, the debounced "Working on it", the completed card.
    expect(channel.calls).toHaveLength(3);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Working on it' });
  });
});
