import { DEFAULT_DISCORD_APP as APP } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { embedOf } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

// Fake time, the emulator in process (in-process.ts): the limits the plugin learns are announced on
// the faked clock, so pacing is checked to the millisecond and not against a loaded machine's jitter.
let h: InProcess | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Discord budgets learned from X-RateLimit-* headers', () => {
  it('five busy cards in one channel: the emulator lowers, then raises its announced edit limit mid-run, and no call is refused', async () => {
    h = inProcess({ emulator: { limits: { createBucket: { limit: 5, windowMs: 2000 }, editBucket: { limit: 6, windowMs: 2000 } } } });
    const t = h;
    const cards = Array.from({ length: 5 }, (_, i) => {
      const card = t.cards.open('discord');
      card.start({ title: `Job ${i + 1}` });
      return card;
    });
    // every card changes every 150 ms: far more than the buckets allow, so pacing decides
    let step = 0;
    const busyFor = async (ms: number) => {
      for (let elapsed = 0; elapsed < ms; elapsed += 150) {
        step += 1;
        for (const card of cards) card.push({ type: 'answer.delta', text: `step ${step}. `, at: Date.now() });
        await t.time.advance(150);
      }
    };
    await busyFor(2500);
    t.emulator.setBucketLimit('messages.edit', { limit: 2, windowMs: 2000 });
    await busyFor(4500);
    const editsBefore = t.emulator.calls({ route: 'messages.edit', outcome: 'accepted' }).length;
    t.emulator.setBucketLimit('messages.edit', { limit: 8, windowMs: 1500 });
    await busyFor(3000);
    for (const card of cards) card.complete();
    const finals = await t.settle(Promise.all(cards.map((card) => card.finalDelivery)));
    expect(finals.map((f) => f.status)).toEqual(Array(5).fill('completed'));
    // the emulator's verdict: no 429 at any time, for any bucket
    expect(t.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    // the limits were really announced and followed: edits happened under each of the three limits
    const edits = t.emulator.calls({ route: 'messages.edit', outcome: 'accepted' });
    expect(editsBefore).toBeGreaterThan(5);
    expect(edits.length).toBeGreaterThan(editsBefore + 5);
    // every card ends completed (the channel also holds completion pings: each card but the last was
    // pushed up by the cards posted after it, and a ping is plain content, no embed)
    const cardMessages = t.emulator.messages({ channelId: APP.channel }).filter((message) => message.embeds.length > 0);
    expect(cardMessages).toHaveLength(5);
    for (const message of cardMessages) expect(embedOf(message).title).toMatch(/Completed/);
  });
});
