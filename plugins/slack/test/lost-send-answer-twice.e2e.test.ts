import { describe, expect, it } from 'vitest';
import { applyPostsLate, appliedPosts, expectOneCompletedCard, useLostPostHarness } from './lost-send.js';

const start = useLostPostHarness();

/**
 * When two posts of one card both go unanswered and Slack applies both late, one message per
 * idempotency key must remain, whichever the reconciling lookup sees first (issue 30: a breaker
 * found two cards). See lost-send.ts for the timings.
 */
describe('Slack: two lost posts of one card, both applied late, leave one message', () => {
  it('the lookup before the third post finds both: the older is adopted and the other deleted', async () => {
    const h = await start();
    // Post 1 (t=0) is applied at 2 s, post 2 (t≈1.3 s, after a lookup that found nothing) at about 2.8 s:
    // the lookup before the third post (t≈3.6 s) sees both.
    applyPostsLate(h, 2000, 1500);
    const card = h.cards.open('slack');
    card.start({ title: 'two lost posts' });
    await h.until(5000);
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.until(9000);
    expect(appliedPosts(h)).toHaveLength(2);
    expectOneCompletedCard(h);
  });

  it('the lookup finds the first post only: the second, applied after it, is deleted by a later look', async () => {
    const h = await start();
    // Post 1 (t=0) is applied at 2.5 s and adopted by the lookup at about 3.6 s; post 2 (t≈1.3 s) only at about 5.3 s.
    applyPostsLate(h, 2500, 4000);
    const card = h.cards.open('slack');
    card.start({ title: 'two late posts' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    // Wait for Slack to apply the second post (and for a look after it).
    await h.until(14_000);
    expect(appliedPosts(h)).toHaveLength(2);
    expectOneCompletedCard(h);
  });
});
