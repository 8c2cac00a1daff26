import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptedCards, blockText, harness, statusOf, type Harness } from './harness.js';

/**
 * Field fault cases only Slack has (fixtures/faults.jsonl): a closed edit window (F10) and a
 * workspace-wide rate limit (F07). The shared cases (F01, F02, F05, F06, F08) run in the
 * conformance suite (conformance.e2e.test.ts).
 */
const cases = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const UPDATE = 'chat.update';
const ratelimited = (seconds: number) => ({ status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': String(seconds) } });

describe('Slack-only field fault cases (through the emulator)', () => {
  it('F10 edit window closed: one failed call, no retry loop, the final goes out once as a fresh card and the old card is deleted', async () => {
    const c = cases.get('F10')!;
    h = await harness({ scale: 20 });
    const off = h.emulator.onChange((change) => {
      if (change.kind !== 'posted') return;
      off();
      h!.emulator.closeEditWindow(change.message.ts);
    });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.until(9100 + 3000);
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(h.emulator.calls({ key: old!.ts, route: UPDATE }).map((x) => x.msg)).toEqual(['edit_window_closed']);
    expect(statusOf(fresh!.blocks)).toBe('Completed');
    expect(blockText(fresh!.blocks, 'answer_')).toBe('Released.');
    // The old card would stay "running" next to the fresh one: deleted once the fresh one exists.
    expect(old!.state).toBe('deleted');
    expect(h.emulator.calls({ key: old!.ts, route: 'chat.delete' }).map((x) => x.outcome)).toEqual(['accepted']);
  });

  it('F07 workspace rate limit on chat.update: that method pauses for Retry-After, updates coalesce, the card ends completed', async () => {
    const c = cases.get('F07')!;
    h = await harness({ scale: 1 });
    h.emulator.faults.setOrigin(h.t0);
    h.emulator.faults.add({ route: UPDATE, window: { fromMs: 1000, toMs: 3000 }, respond: ratelimited(2) });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(statusOf(message!.blocks)).toBe('Completed');
    expect(blockText(message!.blocks, 'answer_')).toBe('Here is the summary.');
    const limited = message!.history.filter((x) => x.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeLessThanOrEqual(2); // Retry-After 2 s honoured: at most one refused call per pause
    for (const accepted of acceptedCards(message!)) expect(JSON.stringify(accepted)).not.toMatch(/ratelimited|429/);
  });
});
