import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Messages of the channel that are not deleted. */
const live = (harnessed: Harness) => harnessed.emulator.messages().filter((message) => message.state !== 'deleted');

/**
 * chat.postMessage has no idempotency key: the plugin reconciles a post that went unanswered by the
 * idempotency key in its message metadata. When two posts of one card both go unanswered and Slack
 * applies both late, one message per key must remain, whichever the reconciling lookup sees first
 * (issue 30: a breaker found two cards). Retries in this harness come 1 s and 2 s after a failure;
 * the plugin gives up on a post after 0.3 s.
 */
describe('Slack: two lost posts of one card, both applied late, leave one message', () => {
  it('the lookup before the third post finds both: the older is adopted and the other deleted', async () => {
    h = await harness({ plugin: { requestTimeoutMs: 300 } });
    // Post 1 (t=0) is applied at 2 s, post 2 (t≈1.3 s, after a lookup that found nothing) at about 2.8 s:
    // the lookup before the third post (t≈3.6 s) sees both.
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, latencyMs: 2000 });
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 2, latencyMs: 1500 });
    const card = h.cards.open('slack');
    card.start({ title: 'two lost posts' });
    await h.until(5000);
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.until(9000);
    const accepted = h.emulator.calls().filter((call) => call.route === 'chat.postMessage' && call.outcome === 'accepted');
    expect(accepted).toHaveLength(2);
    const remaining = live(h);
    expect(remaining).toHaveLength(1);
    expect(remaining[0]!.text).toMatch(/^Completed/);
    expect(JSON.stringify(remaining[0]!.blocks)).toContain('Finished.');
  });

  it('the lookup finds the first post only: the second, applied after it, is deleted by a later look', async () => {
    h = await harness({ plugin: { requestTimeoutMs: 300 } });
    // Post 1 (t=0) is applied at 2.5 s and adopted by the lookup at about 3.6 s; post 2 (t≈1.3 s) only at about 5.3 s.
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, latencyMs: 2500 });
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 2, latencyMs: 4000 });
    const card = h.cards.open('slack');
    card.start({ title: 'two late posts' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    // Wait for Slack to apply the second post (and for a look after it).
    await h.until(14_000);
    const accepted = h.emulator.calls().filter((call) => call.route === 'chat.postMessage' && call.outcome === 'accepted');
    expect(accepted).toHaveLength(2);
    const remaining = live(h);
    expect(remaining).toHaveLength(1);
    expect(remaining[0]!.text).toMatch(/^Completed/);
    expect(JSON.stringify(remaining[0]!.blocks)).toContain('Finished.');
  });
});
