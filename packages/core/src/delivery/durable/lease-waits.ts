import type { Logger } from '../../shared/logger.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { CardLeases } from './card-leases.js';

/**
 * Cards waiting for the card store. A card whose lease may have expired (the store unreachable for
 * longer than the lease) makes no platform call: another process may have claimed it. It waits, its
 * changes kept, until the store answers: regained (nobody claimed it, {@link regained}) or lost
 * (fenced by the caller, its final says so).
 */
export class LeaseWaits {
  readonly #waiting = new Set<CardDeliveryRecord>();

  constructor(
    private readonly leases: Pick<CardLeases, 'expired'>,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  /** True when `record`'s lease holds; otherwise the card waits from now on (logged once per wait). */
  valid(record: CardDeliveryRecord): boolean {
    if (!this.leases.expired(record.card.id)) return true;
    if (!this.#waiting.has(record)) {
      this.#waiting.add(record);
      this.logger.warn('card waits for the card store: its lease may have expired, another process may have taken it over', { card: record.card.id, channel: this.channel });
    }
    return false;
  }

  /** The store renewed `record`'s lease: true when it was waiting (it no longer is). */
  regained(record: CardDeliveryRecord): boolean {
    return this.#waiting.delete(record);
  }

  /** True while `record` waits. */
  has(record: CardDeliveryRecord): boolean {
    return this.#waiting.has(record);
  }

  /** The cards waiting now. */
  get waiting(): ReadonlySet<CardDeliveryRecord> {
    return this.#waiting;
  }
}
