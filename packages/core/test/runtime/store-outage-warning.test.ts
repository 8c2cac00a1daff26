/**
 * A card store outage is reported once for the whole composition: card writes, lease renewals and
 * orphan sweeps all fail during it, and the user sees one warning, and one more only for a later outage.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, InMemoryBudgetStore, InMemoryCardStore, memoryChannel, type CardStore, type Logger } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

function failingWhile(store: InMemoryCardStore, link: { down: boolean }): CardStore {
  const gate = <T>(call: () => Promise<T>) => (link.down ? Promise.reject(new Error('connection lost')) : call());
  return {
    put: (card) => gate(() => store.put(card)),
    get: (cardId) => gate(() => store.get(cardId)),
    list: () => gate(() => store.list()),
    delete: (cardId, token) => gate(() => store.delete(cardId, token)),
    claim: (cardId, owner, expiresAt, now) => gate(() => store.claim(cardId, owner, expiresAt, now)),
    renew: (owner, cards, expiresAt) => gate(() => store.renew(owner, cards, expiresAt)),
  };
}

describe('card store outage warnings', () => {
  it('one warning per outage, whatever failed during it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const warnings: string[] = [];
    const logger: Logger = { debug: () => {}, warn: (message) => warnings.push(message), error: () => {} };
    const link = { down: false };
    const cards = createProgressCards({
      channels: [memoryChannel()],
      store: { budgets: new InMemoryBudgetStore(), cards: failingWhile(new InMemoryCardStore(), link) },
      logger,
      leaseTtlMs: 30_000,
      orphanGraceMs: 2000,
    });
    const card = cards.open('memory', undefined, { runId: 'run-1', locale: 'en' });
    card.toolStarted('c1', 'shell', { command: 'npm test' });
    await settle(1000);
    link.down = true;
    // Writes, renewals and several orphan sweeps fail during 20 s.
    card.toolFinished('c1', 'ok');
    card.toolStarted('c2', 'shell', { command: 'npm run build' });
    await settle(20_000);
    expect(warnings.filter((warning) => warning.startsWith('card store'))).toEqual(['card store unavailable; cards keep going while their lease is valid']);
    link.down = false;
    await settle(12_000);
    link.down = true;
    await settle(5000);
    expect(warnings.filter((warning) => warning.startsWith('card store'))).toHaveLength(2);
    link.down = false;
    card.complete('done');
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    await cards.shutdown();
  });
});
