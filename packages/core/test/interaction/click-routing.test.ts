import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, InMemoryBudgetStore, InMemoryCardStore, InMemoryClickRelay, memoryChannel, silentLogger, type ClickHandler, type ControlClick } from '../../src/index.js';
import { settle } from '../helpers.js';

/**
 * Two compositions sharing one store (cards, budgets, click relay) stand for two processes of one
 * app: a click reaching the composition that does not hold the card is decided by the one that does.
 */
function twoProcesses() {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const store = { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore(), clicks: new InMemoryClickRelay() };
  const process = () => {
    let onClick: ClickHandler | undefined;
    const channel = Object.assign(memoryChannel(), {
      interaction: {
        start: async (handler: ClickHandler) => {
          onClick = handler;
        },
        stop: async () => undefined,
      },
    });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {}, store, orphanGraceMs: 600_000 });
    return { cards, click: (click: ControlClick) => onClick!(click) };
  };
  return { a: process(), b: process(), store };
}

afterEach(() => vi.useRealTimers());

describe('clicks across processes sharing a store', () => {
  it('a click reaching the other process is decided by the owner, once; later clicks hear who decided', async () => {
    const { a, b } = twoProcesses();
    const card = a.cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    const decision = card.requestApproval({ prompt: 'Ship it?' });
    b.cards.open('memory', undefined, { locale: 'en' }).onStop(() => undefined); // b's callbacks start
    await settle(10);
    const { cardId, pending } = card.view().controls!;
    const click = (user: string, optionId: string, deliveryId: string) => b.click({ cardId, interactionId: pending!.id, optionId, user: { id: user, name: user }, deliveryId });

    const first = click('ou_bob', 'approve', 'd1');
    expect(first).toBeInstanceOf(Promise);
    await settle(10);
    expect(await first).toMatchObject({ outcome: 'decided', message: 'Sent: Approve' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_bob' } });
    await settle(10);
    expect(await click('ou_eve', 'deny', 'd2')).toMatchObject({ outcome: 'already-decided', message: 'Already decided by ou_bob' });
    // A retried callback is answered from memory, nothing decided again.
    expect(await click('ou_bob', 'approve', 'd1')).toMatchObject({ repeated: true });
  });

  it('a click for a card whose process stopped answering says so, and decides nothing', async () => {
    const { a, b, store } = twoProcesses();
    const card = a.cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    const decision = card.requestApproval({ prompt: 'Ship it?', timeoutMs: 60_000 });
    b.cards.open('memory', undefined, { locale: 'en' }).onStop(() => undefined);
    await settle(10);
    const { cardId, pending } = card.view().controls!;
    // The owner stops listening (as a killed process drops off Redis) while its card is still stored.
    const stored = await store.cards.get(cardId);
    await store.clicks.unlisten(stored!.lease.owner);
    const reply = b.click({ cardId, interactionId: pending!.id, optionId: 'approve', user: { id: 'ou_bob' }, deliveryId: 'd1' });
    await settle(10);
    expect(await reply).toMatchObject({ outcome: 'unavailable', tone: 'warning', message: expect.stringContaining('not answering') });
    await settle(60_000);
    await expect(decision).resolves.toMatchObject({ timedOut: true });
  });
});
