import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { RetrySettings } from './retry-settings.js';

/** What {@link CredentialProbes} uses of its channel's dispatcher. */
export interface CredentialProbesHost {
  readonly channel: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: RetrySettings;
  /** Fetches fresh credentials before a probe (never rejects). */
  refresh(): Promise<void>;
  /** Asks for a flush of `record` now: its call is the probe (terminal rank when `final`). */
  flush(record: CardDeliveryRecord, final: boolean): void;
  /** A final waited longer than `credentialWaitMs`: report it undeliverable. */
  giveUp(record: CardDeliveryRecord): void;
}

/**
 * Half-open probing of credentials the platform refused channel-wide after they had worked in this
 * process (a rotated app secret, a token endpoint refusing for a while), like the outage probes
 * of one card (see `OutageProbes`): instead of stopping the channel for good, every card of the
 * channel waits, progressive updates and finals alike, and one card at a time probes the platform
 * with backoff (`probeDelaysMs` by probe, the last repeating), with fresh credentials fetched before
 * each probe. The first call that gets through lifts the stop ({@link lifted}): every waiting card
 * is flushed again from its latest state, so finals are delivered. A final waits at most
 * `credentialWaitMs`, then it is reported undeliverable. Credentials refused from the start (a
 * wrong secret) still stop the channel at once: nothing suggests they will work.
 */
export class CredentialProbes {
  /** Cards waiting for the credentials, with the epoch ms each final began to wait. */
  private readonly cards = new Map<CardDeliveryRecord, number | undefined>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private probes = 0;
  private probe: CardDeliveryRecord | undefined;
  /** Set by {@link dispose}: no probe is scheduled any more (a call answering after shutdown must not start a timer). */
  private disposed = false;

  constructor(private readonly host: CredentialProbesHost) {}

  /** Cards waiting (for shutdown: they are fenced, nothing more is sent for them). */
  get waiting(): readonly CardDeliveryRecord[] {
    return [...this.cards.keys()];
  }

  /** True when `record`'s next call is the channel's probe: it may go out while the channel is stopped. */
  isProbe(record: CardDeliveryRecord): boolean {
    return this.probe === record;
  }

  /** `record` waits for the credentials (its probe, if it was one, failed or had nothing to send); the next probe is scheduled. */
  wait(record: CardDeliveryRecord, final: boolean): void {
    if (this.probe === record) this.probe = undefined;
    const since = this.cards.get(record);
    this.cards.set(record, final ? (since ?? this.host.clock.now()) : undefined);
    record.pause();
    this.schedule();
  }

  /** A call got through: the credentials work again; every waiting card is flushed from its latest state. */
  lifted(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const resumed = [...this.cards.entries()];
    const wasProbing = this.probes > 0 || resumed.length > 0;
    const probe = this.probe;
    this.cards.clear();
    this.probes = 0;
    this.probe = undefined;
    if (wasProbing) this.host.logger.warn(`${this.host.channel}: credentials accepted again: delivery resumes`, { channel: this.host.channel, cards: resumed.length });
    probe?.resumeUpdates();
    for (const [record, finalSince] of resumed) {
      record.resumeUpdates();
      // (the probe's own call got through: its delivery goes on from that answer)
      if (record !== probe) this.host.flush(record, finalSince !== undefined);
    }
  }

  /** `record`'s final settled: it no longer waits. */
  forget(record: CardDeliveryRecord): void {
    this.cards.delete(record);
    if (this.probe === record) this.probe = undefined;
  }

  /** Stops the probe timer (shutdown; the waiting cards are fenced by the dispatcher). */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.cards.clear();
    this.probe = undefined;
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    const delays = this.host.retry.probeDelaysMs;
    const delay = delays[Math.min(this.probes, delays.length - 1)] ?? 5000;
    this.probes += 1;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.fire();
    }, delay);
  }

  /** Gives up finals that waited too long, then probes with one waiting card (a final first). */
  private async fire(): Promise<void> {
    const now = this.host.clock.now();
    for (const [record, finalSince] of [...this.cards]) {
      if (finalSince !== undefined && now - finalSince >= this.host.retry.credentialWaitMs) {
        this.cards.delete(record);
        this.host.giveUp(record);
      }
    }
    const entries = [...this.cards.entries()].filter(([candidate]) => candidate !== this.probe);
    const [record, finalSince] = entries.find(([, since]) => since !== undefined) ?? entries[0] ?? [];
    if (!record) return;
    // (a probe still out, retrying after a non-auth failure, goes on; its card re-joins the waiting ones if stopped again)
    this.probe = record;
    this.host.logger.debug('probing refused credentials', { channel: this.host.channel, card: record.card.id, probe: this.probes });
    await this.host.refresh();
    // Shutdown or a success elsewhere may have ended the probe while the refresh ran.
    if (this.probe !== record) return;
    this.host.flush(record, finalSince !== undefined);
  }
}
