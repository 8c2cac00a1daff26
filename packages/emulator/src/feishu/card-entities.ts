import { randomDigits } from '../common/ids.js';
import { checkCardContent, type CardLimits } from './card-rules.js';
import { CardKitErrors, type FeishuError } from './codes.js';

/** A CardKit card entity as the emulator stores it. Times are epoch ms on the emulator clock. */
export interface StoredCardEntity {
  /** Decimal id like real ones (`7355372766134157313`). */
  readonly cardId: string;
  readonly appId: string;
  readonly createdAt: number;
  /** The current card. */
  card: Record<string, unknown>;
  /** Streaming mode as the platform has it now (`config.streaming_mode`, settings, the window). */
  streaming: boolean;
  /** When streaming mode was last opened; the window closes `streamingWindowMs` later. */
  streamingOpenedAt?: number;
  /** Highest `sequence` accepted so far (0 before the first operation). */
  lastSequence: number;
  /** `uuid`s used on this entity (a reused one answers 200770). */
  readonly uuids: Set<string>;
  updatedAt: number;
  /** Accepted operations after create (update, settings, element content). */
  updates: number;
  /** The message that sent it by reference (one send per entity). */
  messageId?: string;
}

/** A card entity as read back from the emulator (a copy). */
export interface FeishuCardEntitySnapshot {
  readonly cardId: string;
  readonly appId: string;
  readonly card: Record<string, unknown>;
  readonly streaming: boolean;
  readonly lastSequence: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly updates: number;
  readonly messageId?: string;
}

const SUB_CODE = /ErrCode: (\d+);/;

/**
 * Checks Card JSON for CardKit (create / full update): the IM card rules of {@link checkCardContent},
 * answered with CardKit's codes: over 30 KB → 200860, unreadable → 200220, not 2.0 → 300303,
 * over 200 components → 300305, duplicate `element_id` → 300301, `update_multi: false` → 300302.
 */
export function checkEntityCard(data: string, limits: CardLimits): { card: Record<string, unknown> } | { error: FeishuError } {
  const checked = checkCardContent(data, limits);
  if (!checked.ok) {
    const { code, msg } = checked.error;
    if (code === 230025) return { error: CardKitErrors.tooLarge() };
    const sub = Number(SUB_CODE.exec(msg)?.[1]);
    if (sub === 11310 && /element/.test(msg)) return { error: CardKitErrors.tooManyElements() };
    if (sub === 300301 || sub === 300302 || sub === 10002) return { error: { status: 400, code: sub, msg } };
    return { error: CardKitErrors.cardContent(msg) };
  }
  if (checked.value.schema !== '2.0') return { error: CardKitErrors.schemaNotSupported() };
  return { card: checked.value.card };
}

/** In-memory card entities. */
export class CardEntityStore {
  private readonly entities = new Map<string, StoredCardEntity>();

  add(appId: string, card: Record<string, unknown>, now: number): StoredCardEntity {
    const streaming = (card.config as { streaming_mode?: unknown } | undefined)?.streaming_mode === true;
    const entity: StoredCardEntity = {
      cardId: randomDigits(19),
      appId,
      createdAt: now,
      card,
      streaming,
      streamingOpenedAt: streaming ? now : undefined,
      lastSequence: 0,
      uuids: new Set(),
      updatedAt: now,
      updates: 0,
    };
    this.entities.set(entity.cardId, entity);
    return entity;
  }

  get(cardId: string): StoredCardEntity | undefined {
    return this.entities.get(cardId);
  }

  list(): StoredCardEntity[] {
    return [...this.entities.values()];
  }
}

/** Sets streaming mode; opening it (again) starts a new window. */
export function setStreaming(entity: StoredCardEntity, on: boolean, now: number): void {
  if (on && !entity.streaming) entity.streamingOpenedAt = now;
  entity.streaming = on;
}

/** A deep copy for read-back. */
export function snapshotEntity(e: StoredCardEntity): FeishuCardEntitySnapshot {
  return structuredClone({
    cardId: e.cardId,
    appId: e.appId,
    card: e.card,
    streaming: e.streaming,
    lastSequence: e.lastSequence,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    updates: e.updates,
    messageId: e.messageId,
  });
}
