import { describe, expect, it } from 'vitest';
import { applyPostsLate, appliedPosts, expectOneCompletedCard, useLostPostHarness } from './lost-send.js';

const start = useLostPostHarness();

describe('Slack: a post whose answer never arrived is reconciled before its retry (chat.postMessage has no idempotency key)', () => {
  it('the first post is applied after the plugin gave up on it: the retry finds it by its metadata and adopts it, one message, completed', async () => {
    const h = await start();
    // Slack posts the message, but its answer comes after the plugin gave up on it.
    applyPostsLate(h, 700);
    const card = h.cards.open('slack');
    card.start({ title: 'lost answer' });
    card.toolStarted('t', 'shell', { command: 'make' });
    await h.until(100);
    card.toolFinished('t', 'ok');
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text).toMatch(/^Completed/);
    expect(JSON.stringify(messages[0]!.blocks)).toContain('Finished.');
    // One post, one lookup that found it (no second post).
    expect(h.emulator.calls().filter((call) => call.route === 'chat.postMessage')).toHaveLength(1);
    expect(h.emulator.calls().filter((call) => call.route === 'conversations.history').length).toBeGreaterThanOrEqual(1);
  });

  it('the first post is applied after the lookup found nothing and the retry posted: the orphan carrying the same idempotency key is deleted, one card remains', async () => {
    const h = await start();
    // Slack applies the first post 2.5 s after it arrived: after the plugin gave up on it (0.3 s), after
    // the retry's lookup (about 1.3 s, finding nothing) and after the retry's own post.
    applyPostsLate(h, 2500);
    const card = h.cards.open('slack');
    card.start({ title: 'late apply' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.until(9000);
    // Both posts were applied: without the second look both cards stay, the late one showing an older state.
    expect(appliedPosts(h)).toHaveLength(2);
    expectOneCompletedCard(h);
    expect(h.emulator.calls().filter((call) => call.route === 'chat.delete' && call.outcome === 'accepted')).toHaveLength(1);
  });

  it('a post that was not applied (5xx) is posted again after a lookup finds nothing: one message, completed', async () => {
    const h = await start({ plugin: {} }); // the plugin's default request timeout: a 503 is answered at once
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, respond: { status: 503, body: { ok: false, error: 'service_unavailable' } } });
    const card = h.cards.open('slack');
    card.start({ title: 'refused post' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.messages()).toHaveLength(1);
    expect(JSON.stringify(h.emulator.messages()[0]!.blocks)).toContain('Finished.');
    expect(appliedPosts(h)).toHaveLength(1);
  });
});
