import { faultCase, lateEditOverFinal, loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { embedOf, harness, waitFor, type Harness } from './harness.js';

/** The shared fault case F17, copied into fixtures/faults-more.jsonl with Discord's answers (its script at 8 times its times). */
const cases = loadFaultCases(new URL('./fixtures/faults-more.jsonl', import.meta.url));
const EDIT = 'messages.edit';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Discord: an edit that timed out on the client is applied late by the platform, over the final (F17)', () => {
  // The late edit lands 9 s after it was sent and the late-apply window is 14 s: about 18 s of real waiting, idle.
  it('the message ends showing the final, and finalDelivery is reported only after the late edit landed', async () => {
    // A message edit (PATCH) carries no version, so a late edit of an older state replaces whatever the message shows.
    h = await harness({ plugin: { requestTimeoutMs: 1000 }, retry: { lateApplyWindowMs: 14_000 } });
    h.emulator.faults.add({ route: EDIT, nth: 1, latencyMs: 9000, label: 'applied 9 s after it arrived: the client gave up after 1 s' });
    const card = h.cards.open('discord');
    let reportedAt = Number.NaN;
    void card.finalDelivery.then(() => (reportedAt = Date.now()));
    await h.play(card, faultCase(cases, 'F17').events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    // Whatever was reported, look once the late edit was applied (it arrives 9 s after it was sent).
    await waitFor(() => h!.emulator.calls({ route: EDIT }).some((call) => call.outcome === 'accepted' && call.at - call.receivedAt! >= 8000), 'the late edit', 20_000);
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    // In the order the platform applied them (a call is recorded when applied).
    const applied = message!.history.filter((call) => call.outcome === 'accepted').map((call) => ({ at: call.at, final: /Completed/.test(JSON.stringify(call.card)) }));
    const { firstFinal, late, lateAt, endsWithFinal } = lateEditOverFinal(applied);
    // The fault happened: an older state (the running tool) was applied after the final...
    expect(firstFinal).toBeGreaterThan(0);
    expect(late).toBeGreaterThan(firstFinal);
    // ...and the final was applied again after it, before the card reported its final.
    expect(endsWithFinal).toBe(true);
    expect(reportedAt).toBeGreaterThanOrEqual(lateAt!);
    expect(embedOf(message).title).toMatch(/Completed/);
    expect(JSON.stringify(message!.embeds)).toContain('FINAL-ANSWER');
  }, 60_000);
});
