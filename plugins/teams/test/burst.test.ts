import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { shownText } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Minutes of faked time through the in-process emulator: seconds of CPU, more on a busy machine.
describe('many cards at once in one Teams group chat (in process, fake time, the documented windows)', { timeout: 30_000 }, () => {
  // The breaker's run met 429 (8 sends within 929 ms): every first send waited for the bot's first token, so
  // the first seven reached Teams together well after the slots they were counted at, and the eighth, paced a
  // second after the first slot, came less than a second after them. Here the token takes 400 ms.
  it.each([0, 400])('20 cards opened at once, the first token taking %i ms: no 429, every card posted and completed with its answer', async (tokenMs) => {
    t = inProcess();
    if (tokenMs > 0) t.emulator.faults.add({ route: 'token', times: 1, latencyMs: tokenMs });
    const cards = Array.from({ length: 20 }, () => t!.cards.open('teams', undefined, { locale: 'en' }));
    for (const [i, card] of cards.entries()) {
      card.start({ title: `Job ${i}` });
      card.toolStarted(`c${i}`, 'shell', { command: `make job-${i}` });
    }
    await t.time.advance(20_000);
    for (const [i, card] of cards.entries()) {
      card.toolFinished(`c${i}`, 'ok');
      card.answer(`Job ${i} is done.`);
      card.complete();
    }
    const finals = await t.settle(Promise.all(cards.map((card) => card.finalDelivery)), 300_000);
    expect(finals.map((final) => final.ok)).toEqual(cards.map(() => true));
    expect(t.emulator.calls().filter((call) => call.status === 429).map((call) => `${call.route} ${call.at}`)).toEqual([]);
    const messages = t.emulator.activities({ conversationId: BOT.groupChat });
    expect(messages).toHaveLength(20);
    for (const [i] of cards.entries()) expect(messages.some((m) => shownText(m).includes(`Job ${i} is done.`))).toBe(true);
  });
});
