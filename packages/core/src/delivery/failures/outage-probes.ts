import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { RetrySettings } from './retry-settings.js';

/**
 * A channel's half-open probing of cards in an outage (see `CardOutage`): progressive updates
 * that failed too often pause, and the card probes with backoff (one warning when the outage
 * begins). A probe renders the latest state, so the first that gets through catches up.
 */
export class OutageProbes {
  /** `probe(record)` asks for a structural flush of the card (it waits for its not-before time). */
  constructor(
    private readonly channel: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly retry: RetrySettings,
    private readonly probe: (record: CardDeliveryRecord) => void,
  ) {}

  /** Pauses the card's progressive updates and schedules its next probe (`probeDelaysMs` by probe). */
  later(record: CardDeliveryRecord, fields: Record<string, unknown>): void {
    const now = this.clock.now();
    if (!record.outage.ongoing) {
      this.logger.warn('pausing progressive updates; probing the platform with backoff', fields);
      record.outage.begin(now);
    }
    record.pause();
    record.flushQueue.notBeforeTime(now + record.outage.nextProbeDelay(this.retry.probeDelaysMs));
    this.probe(record);
  }

  /** A call of the card got through: an outage ends and progressive updates flow again. */
  succeeded(record: CardDeliveryRecord): void {
    record.outage.accepted(this.clock.now());
    if (!record.outage.ongoing) return;
    record.outage.recovered();
    record.resumeUpdates();
    this.logger.warn('progressive updates resumed', { card: record.card.id, channel: this.channel });
  }
}
