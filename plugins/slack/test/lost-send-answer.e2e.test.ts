import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Slack: a post whose answer never arrived is reconciled before its retry (chat.postMessage has no idempotency key)', () => {
  it('the first post is applied after the plugin gave up on it: the retry finds it by its metadata and adopts it, one message, completed', async () => {
    h = await harness({ plugin: { requestTimeoutMs: 300 } });
    // Slack posts the message, but its answer comes after the plugin gave up on it.
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, latencyMs: 700 });
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
    h = await harness({ plugin: { requestTimeoutMs: 300 } });
    // Slack applies the first post 2.5 s after it arrived: after the plugin gave up on it (0.3 s), after
    // the retry's lookup (about 1.3 s, finding nothing) and after the retry's own post.
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, latencyMs: 2500 });
    const card = h.cards.open('slack');
    card.start({ title: 'late apply' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.until(9000);
    const posts = h.emulator.calls().filter((call) => call.route === 'chat.postMessage');
    // Both posts were applied: without the second look both cards stay, the late one showing an older state.
    expect(posts.filter((call) => call.outcome === 'accepted')).toHaveLength(2);
    const live = h.emulator.messages().filter((message) => message.state !== 'deleted');
    expect(live).toHaveLength(1);
    expect(live[0]!.text).toMatch(/^Completed/);
    expect(JSON.stringify(live[0]!.blocks)).toContain('Finished.');
    expect(h.emulator.calls().filter((call) => call.route === 'chat.delete' && call.outcome === 'accepted')).toHaveLength(1);
  });

  it('a post that was not applied (5xx) is posted again after a lookup finds nothing: one message, completed', async () => {
    h = await harness();
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, respond: { status: 503, body: { ok: false, error: 'service_unavailable' } } });
    const card = h.cards.open('slack');
    card.start({ title: 'refused post' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.messages()).toHaveLength(1);
    expect(JSON.stringify(h.emulator.messages()[0]!.blocks)).toContain('Finished.');
    expect(h.emulator.calls().filter((call) => call.route === 'chat.postMessage' && call.outcome === 'accepted')).toHaveLength(1);
  });
});
