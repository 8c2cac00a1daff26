import { afterEach, describe, expect, it } from 'vitest';
import type { FeishuHttpCallbacks } from '../src/index.js';
import { elementsOf, harness, textOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Feishu mode cardkit with card callbacks (through the emulator, which enforces Feishu\'s streaming rule)', () => {
  it('a click on a CardKit card updates it at once: the card showing the question is not in streaming mode; the answer streams again after', async () => {
    h = await harness({ plugin: { mode: 'cardkit', debounceMs: 200, callbacks: { mode: 'http', port: 0 } } });
    const harnessed = h;
    const server = h.plugin.interaction as FeishuHttpCallbacks;
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    card.answer('Checking the release notes. ');
    const streamedFirst = await waitFor(() => harnessed.emulator.messages()[0], 'the card');
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const url = await waitFor(() => server.url, 'the callback server');
    harnessed.emulator.configureCallbacks({ url });
    const message = await waitFor(
      () => harnessed.emulator.messages().find((m) => elementsOf(m.card).some((e) => e.tag === 'button' && (e.text as { content: string }).content === 'Approve')),
      'the Approve button',
    );
    expect(message.messageId).toBe(streamedFirst.messageId);
    expect(harnessed.emulator.cardEntity(message.cardId!)!.streaming).toBe(false);

    const clicked = await harnessed.emulator.click({ messageId: message.messageId, user: 'ou_bob', name: 'Bob', button: 'Approve' });
    expect(clicked).toMatchObject({ status: 200, cardUpdated: true });
    const now = harnessed.emulator.message(message.messageId)!;
    expect(textOf(now.card, 'ia_decided')).toBe("<font color='green'>✅ Approve · Bob</font>");
    expect(elementsOf(now.card).some((e) => e.tag === 'button' && (e.text as { content: string }).content === 'Approve')).toBe(false);
    await expect(decision).resolves.toMatchObject({ approved: true });

    // After the question the card has no callback control: the answer types out again.
    const writesBefore = harnessed.emulator.calls({ route: 'cardkit.element.content', outcome: 'accepted' }).length;
    card.answer('Published 1.4.0. ');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    card.answer('Tagged the release.');
    await waitFor(() => harnessed.emulator.calls({ route: 'cardkit.element.content', outcome: 'accepted' }).length > writesBefore, 'a streamed write after the decision');
    card.complete();
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'completed' });
    const final = harnessed.emulator.message(message.messageId)!;
    expect(textOf(final.card, 'answer')).toContain('Tagged the release.');
    expect(harnessed.emulator.cardEntity(message.cardId!)!.streaming).toBe(false);
  });
});
