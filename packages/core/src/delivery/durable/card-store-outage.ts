import type { Logger } from '../../shared/logger.js';
import type { CardStore } from './card-store.js';

/**
 * `store` as one composition uses it, reporting its outages once: a warning when a call first
 * fails, a debug line when a call succeeds again. Failures still reject, for the caller to handle
 * (card writes, lease renewals and orphan sweeps go on without the store and say nothing more).
 */
export function cardStoreReportingOutages(store: CardStore, logger: Logger): CardStore {
  let down = false;
  const watched = <T>(call: () => Promise<T>): Promise<T> =>
    call().then(
      (value) => {
        if (down) logger.debug('card store answers again; cards are stored and their leases renewed again');
        down = false;
        return value;
      },
      (error: unknown) => {
        if (!down) logger.warn('card store unavailable; cards keep going while their lease is valid', { error: String(error) });
        down = true;
        throw error;
      },
    );
  return {
    get: (cardId) => watched(() => store.get(cardId)),
    put: (card) => watched(() => store.put(card)),
    delete: (cardId, fencingToken) => watched(() => store.delete(cardId, fencingToken)),
    list: () => watched(() => store.list()),
    claim: (cardId, owner, expiresAt, now) => watched(() => store.claim(cardId, owner, expiresAt, now)),
    renew: (owner, cards, expiresAt) => watched(() => store.renew(owner, cards, expiresAt)),
  };
}
