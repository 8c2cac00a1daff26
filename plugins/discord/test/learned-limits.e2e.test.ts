import { DEFAULT_DISCORD_APP as APP } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { embedOf, harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Discord budgets learned from X-RateLimit-* headers', () => {
  it('five busy cards in one channel: the emulator lowers, then raises its announced edit limit mid-run, and no call is refused', async () => {
    h = await harness({ emulator: { limits: { createBucket: { limit: 5, windowMs: 2000 }, editBucket: { limit: 6, windowMs: 2000 } } } });
    const cards = Array.from({ length: 5 }, (_, i) => {
      const card = h!.cards.open('discord');
      card.start({ title: `Job ${i + 1}` });
      return card;
    });
    // every card changes every 150 ms: far more than the buckets allow, so pacing decides
    let step = 0;
    const busy = setInterval(() => {
      step += 1;
      for (const card of cards) card.push({ type: 'answer.delta', text: `step ${step}. `, at: Date.now() });
    }, 150);
    try {
      await sleep(2500);
      h.emulator.setBucketLimit('messages.edit', { limit: 2, windowMs: 2000 });
      await sleep(4500);
      h.emulator.setBucketLimit('messages.edit', { limit: 8, windowMs: 1500 });
      await sleep(3000);
    } finally {
      clearInterval(busy);
    }
    for (const card of cards) card.complete();
    const finals = await Promise.all(cards.map((card) => card.finalDelivery));
    expect(finals.map((f) => f.status)).toEqual(Array(5).fill('completed'));
    // the emulator's verdict: no 429 at any time, for any bucket
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    // the limits were really announced and followed: edits happened under each of the three limits
    const edits = h.emulator.calls({ route: 'messages.edit', outcome: 'accepted' });
    expect(edits.length).toBeGreaterThan(10);
    for (const message of h.emulator.messages({ channelId: APP.channel })) expect(embedOf(message).title).toMatch(/Completed/);
  });
});
