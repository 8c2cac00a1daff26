import { describe, expect, it, vi } from 'vitest';
import { applyPostsLate, expectOneCompletedCard, liveCards, useLostPostHarness } from './lost-send.js';

const start = useLostPostHarness();

/**
 * Found by a breaker run (issue 30): in a busy channel the lost post fell off the lookup's first
 * page, and a copy whose delete kept failing stayed "running" beside the card. See lost-send.ts
 * for the timings.
 */
describe('Slack: a lost post is reconciled in a busy channel, and an undeletable copy stops spinning', () => {
  it('the lost post is found behind 250 newer messages (the lookup pages with the cursor): one card remains', async () => {
    const h = await start();
    // The first post is applied at 0.4 s, after the plugin gave up on it; its retry (with the lookup) comes at about 1.3 s.
    applyPostsLate(h, 400);
    const card = h.cards.open('slack');
    card.start({ title: 'busy channel' });
    const emulator = h.emulator;
    await vi.waitFor(() => expect(emulator.messages()).toHaveLength(1), { timeout: 5000, interval: 20 });
    // People talk in the channel once the lost post is applied: it is no longer on the newest page of 200.
    for (let i = 0; i < 250; i++) h.emulator.postUserMessage('C0PROGRESS', `chatter ${i}`);
    await h.until(6000);
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.until(9000);
    expectOneCompletedCard(h);
  }, 30_000);

  it('a copy Slack refuses to delete (500 every time) is edited into a duplicate notice, not left running', async () => {
    const h = await start();
    // Both posts are applied late (2 s and about 2.8 s): the lookup before the third post finds both.
    applyPostsLate(h, 2000, 1500);
    h.emulator.faults.add({ route: 'chat.delete', respond: { status: 500, body: { ok: false, error: 'internal_error' } } });
    const card = h.cards.open('slack');
    card.start({ title: 'undeletable copy' });
    await h.until(5000);
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.until(9000);
    const remaining = liveCards(h);
    expect(remaining.filter((message) => /^Completed/.test(message.text))).toHaveLength(1);
    const others = remaining.filter((message) => !/^Completed/.test(message.text));
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) {
      expect(other.text).toMatch(/^Duplicate of this card/);
      expect(JSON.stringify(other.blocks ?? [])).not.toMatch(/Running|spinner|loading/i);
    }
  }, 30_000);
});
