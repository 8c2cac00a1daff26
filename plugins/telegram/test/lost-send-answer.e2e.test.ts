import { DEFAULT_TELEGRAM_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, statusLine, waitFor, type Harness } from './harness.js';

const SEND = 'sendMessage';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Plays a short run whose first send (the card) is answered only `latencyMs` after it arrived, after the plugin gave up (300 ms). */
async function lostFirstAnswer(latencyMs: number) {
  h = await harness({ plugin: { requestTimeoutMs: 300 } });
  h.emulator.faults.add({ route: SEND, nth: 1, latencyMs, label: 'applied, answered after the client gave up' });
  const card = h.cards.open('telegram');
  card.start({ title: 'lost answer' });
  card.toolStarted('t', 'shell', { command: 'make' });
  await h.until(100);
  card.toolFinished('t', 'ok');
  card.complete('Finished.');
  expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  return h;
}

/** The messages the chat shows (not deleted). */
const shown = (h: Harness) => h.emulator.messages({ chatId: BOT.groupChat }).filter((m) => m.state !== 'deleted');

// sendMessage takes no idempotency key and a bot cannot list a chat's messages: the plugin keeps
// listening to a send that timed out, and the message its late answer names is the retry's, or deleted.
describe('Telegram: the first send times out after Telegram created the message (F19)', () => {
  it('its answer comes before the retry: the retry takes that message, no second one is sent; one message, completed', async () => {
    const { emulator } = await lostFirstAnswer(700);
    expect(emulator.calls({ route: SEND })).toHaveLength(1);
    const [message, ...more] = shown(h!);
    expect(more).toEqual([]);
    expect(statusLine(message)).toMatch(/Completed/);
    expect(message!.text).toContain('Finished.');
  });

  it('its answer comes after a retry made another message: that one stays, the late one is deleted; one message, completed', async () => {
    const { emulator } = await lostFirstAnswer(5000);
    // The late answer arrives about 5 s after the first send; then the duplicate goes.
    await waitFor(() => emulator.calls({ route: 'deleteMessage', outcome: 'accepted' }).length === 1, 'the duplicate deleted', 15_000);
    expect(emulator.calls({ route: SEND, outcome: 'accepted' })).toHaveLength(2);
    const [message, ...more] = shown(h!);
    expect(more).toEqual([]);
    expect(statusLine(message)).toMatch(/Completed/);
    expect(message!.text).toContain('Finished.');
    // What a user saw: the duplicate (the first try, an older state) for as long as the answer took.
    const deleted = emulator.messages({ chatId: BOT.groupChat }).filter((m) => m.state === 'deleted');
    expect(deleted).toHaveLength(1);
    expect(statusLine(deleted[0])).not.toMatch(/Completed/);
  });
});
