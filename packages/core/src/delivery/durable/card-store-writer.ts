import { createHash } from 'node:crypto';
import { isTerminalStatus, type CardView } from '../../card/view.js';
import type { Logger } from '../../shared/logger.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { CardLeases } from './card-leases.js';
import type { CardStore, StoredCard, StoredFinal } from './card-store.js';

/**
 * Writes one channel's card delivery state to the {@link CardStore} under the card's lease: only
 * when what it holds changed, never awaited (delivery does not wait for the store), a failure only
 * logged at debug level (the composition reports the store's outage once). A write refused by the fencing token means another
 * process took the card over: `fenced` is told, and the lease forgotten.
 */
export class CardStoreWriter {
  /** What was last written, per record: its signature and the card. */
  private readonly stored = new WeakMap<CardDeliveryRecord, { signature: string; card: StoredCard }>();

  constructor(
    private readonly cards: CardStore,
    private readonly leases: CardLeases,
    private readonly channelId: string,
    private readonly logger: Logger,
    /** Another process took the card over. */
    private readonly fenced: (record: CardDeliveryRecord) => void,
    /** The store accepted the card's lease again after it ran out locally: nobody claimed it meanwhile. */
    private readonly regained: (record: CardDeliveryRecord) => void,
    /** The channel's app (`ChannelPlugin.appIdentity`), stored with each card. */
    private readonly appIdentity?: string,
  ) {}

  /** Writes the card's state when it changed since the last write. */
  put(record: CardDeliveryRecord, view: CardView): void {
    const parts = record.parts.messages();
    const accepted = record.acceptedContent;
    const contentHash = accepted === undefined ? undefined : createHash('sha1').update(accepted).digest('hex');
    const tools = view.tools.flatMap((tool) =>
      tool.state === 'running' && tool.startedAt !== undefined ? [{ callId: tool.callId, name: tool.name, detail: tool.detail, startedAt: tool.startedAt }] : [],
    );
    const final = storedFinal(view);
    const signature = `${view.status}|${final?.tools.length}|${record.phase}|${record.sendKey}|${record.message?.id}|${parts.map((part) => part?.id).join(',')}|${contentHash}|${tools.map((tool) => tool.callId).join(',')}`;
    if (this.stored.get(record)?.signature === signature) return;
    const cardId = record.card.id;
    const card: StoredCard = {
      cardId,
      runId: record.card.runId,
      channelId: this.channelId,
      ...(this.appIdentity !== undefined && { appIdentity: this.appIdentity }),
      target: record.card.target,
      status: view.status,
      phase: record.phase,
      message: record.message,
      idempotencyKey: record.sendKey,
      continuations: parts,
      title: view.title,
      locale: view.locale,
      startedAt: view.startedAt,
      tools,
      contentHash,
      ...(final && { final }),
      lease: this.leases.leaseOf(cardId),
    };
    this.stored.set(record, { signature, card });
    this.leases.watch(
      cardId,
      () => this.fenced(record),
      () => this.rewrite(record),
      () => this.regained(record),
    );
    this.write(card);
  }

  /** Writes the card last written for `record` again, under a fresh lease (the store lost it). */
  private rewrite(record: CardDeliveryRecord): void {
    const last = this.stored.get(record);
    if (last) this.write({ ...last.card, lease: this.leases.leaseOf(last.card.cardId) });
  }

  private write(card: StoredCard): void {
    const { cardId } = card;
    void this.cards.put(card).then(
      (written) => {
        if (written) this.leases.confirmed(cardId, card.lease.expiresAt);
        else this.leases.lost(cardId);
      },
      (error) => this.failed(error),
    );
  }

  /** Forgets a settled card (and its lease). */
  delete(record: CardDeliveryRecord): void {
    const cardId = record.card.id;
    if (!this.leases.holds(cardId)) return;
    const { fencingToken } = this.leases.leaseOf(cardId);
    this.leases.settling(cardId, fencingToken);
    void this.cards.delete(cardId, fencingToken).then(
      () => this.leases.deleted(cardId),
      (error: unknown) => this.failed(error),
    );
  }

  private failed(error: unknown): void {
    this.logger.debug('card store write failed; delivery goes on without it', { channel: this.channelId, error: String(error) });
  }
}

/**
 * What a terminal view ends with, for the store: the answer (or error / cancel reason), when the
 * run ended and the finished tool calls, so that a process taking the card over after this one
 * died during the final's retries delivers this final instead of "interrupted". Undefined while
 * the run goes on.
 */
function storedFinal(view: CardView): StoredFinal | undefined {
  if (!isTerminalStatus(view.status)) return undefined;
  const tools = view.tools.flatMap((tool) =>
    tool.startedAt === undefined || (tool.state !== 'finished' && tool.state !== 'failed')
      ? []
      : [{ callId: tool.callId, name: tool.name, detail: tool.detail, startedAt: tool.startedAt, finishedAt: tool.finishedAt ?? tool.startedAt, summary: tool.summary, failed: tool.state === 'failed' }],
  );
  return { answer: view.answer, ...(view.error !== undefined && { error: view.error }), endedAt: view.footer.sentAt, tools };
}
