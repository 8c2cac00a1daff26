import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { shownText } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * The card's send times out (2 s) but Teams applies it `appliedAfterMs` after it came in: before the core's
 * retry (the retry must answer that activity, no second send) or after the retry made another (the late one
 * must be deleted, not left as a stale "Running" card).
 */
describe('a send Teams applies after its timeout, in a group chat (in process, fake time)', () => {
  it.each([2_500, 8_000])('applied %i ms after it came in: one card in the chat, completed, no stale duplicate', async (appliedAfterMs) => {
    t = inProcess({ plugin: { requestTimeoutMs: 2_000 } });
    t.emulator.faults.add({ route: 'sendToConversation', times: 1, latencyMs: appliedAfterMs });
    const card = t.cards.open('teams');
    card.start({ title: 'Deploy' });
    card.toolStarted('t1', 'shell', { command: './deploy.sh' });
    await t.time.advance(15_000);
    card.toolFinished('t1', 'ok');
    card.answer('Deployed.');
    card.complete();
    expect(await t.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    await t.time.advance(70_000);
    const sent = t.emulator.calls({ route: 'sendToConversation' }).filter((call) => call.outcome === 'accepted');
    const shown = t.emulator.activities({ conversationId: BOT.groupChat }).filter((a) => !a.deleted);
    expect(shown).toHaveLength(1);
    expect(shownText(shown[0]!)).toMatch(/Completed/);
    expect(shownText(shown[0]!)).toContain('Deployed.');
    // Either the retry answered the late activity (one send applied), or the late duplicate was deleted.
    const deleted = t.emulator.activities({ conversationId: BOT.groupChat }).filter((a) => a.deleted);
    expect(sent.length - deleted.length).toBe(1);
  });
});
