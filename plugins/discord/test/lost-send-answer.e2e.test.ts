import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Discord: the first send times out after the message was created (F19)', () => {
  it('the retry carries the same nonce (enforce_nonce), so Discord answers with the same message: one message, completed', async () => {
    h = await harness({ plugin: { requestTimeoutMs: 300 } });
    // the create is applied, but its answer comes after the plugin gave up on it
    h.emulator.faults.add({ route: 'messages.create', nth: 1, latencyMs: 700 });
    const card = h.cards.open('discord');
    card.start({ title: 'lost answer' });
    card.toolStarted('t', 'shell', { command: 'make' });
    await h.until(100);
    card.toolFinished('t', 'ok');
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]).toMatchObject({ title: expect.stringMatching(/Completed/) });
    expect(JSON.stringify(messages[0]!.embeds)).toContain('Finished.');
    expect(h.emulator.calls().filter((call) => call.route === 'messages.create').length).toBeGreaterThanOrEqual(2);
  });
});
