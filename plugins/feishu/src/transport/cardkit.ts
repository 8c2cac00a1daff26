import type * as lark from '@larksuiteoapi/node-sdk';
import type { MessageRef } from '@progresscard/core/plugin';
import type { FeishuCard, FeishuElement } from '../render/payload.js';
import { FeishuApiError, SEQUENCE_CODE, STREAMING_CLOSED_CODES, classifyFeishuError, feishuCodeOf, isInvalidCardIdError, missingScopeOf } from './classify.js';
import { FEISHU_CARDKIT_ROUTES, type CardOperation } from './cardkit-routes.js';
import type { FeishuAnswer } from './routes.js';

/** Highest `sequence` (int32), card update and settings docs. */
const MAX_SEQUENCE = 2_147_483_647;
/** Entities and pending creates remembered at most (oldest forgotten first; a forgotten one gets full updates). */
const MAX_REMEMBERED = 10_000;
/** Elements whose text streams: the answer's markdown components `answer`, `answer_2`, … */
const STREAMED_ELEMENT = /^answer(_\d+)?$/;

/**
 * What `MessageRef.extra` holds for a card sent as a CardKit entity: the entity and the epoch ms
 * its sequences count from. Sequences are `max(last + 1, now − sequenceBase + 1)`: strictly
 * increasing within a process, and after a restart (or on a retry from another process) still
 * above every sequence used before, without writing anything back. 14 days (the entity's life) is
 * 1.2e9 ms, under the int32 limit.
 */
interface CardKitMessageExtra {
  readonly chatId?: string;
  readonly cardId: string;
  readonly sequenceBase: number;
}

/** What the transport knows about one entity between calls. */
interface EntityState {
  readonly cardId: string;
  readonly sequenceBase: number;
  lastSequence: number;
  /** The card the entity holds as far as we know; undefined when unknown (next change is a full update). */
  shown: FeishuCard | undefined;
  /** Streaming could not be reopened: every later change is a full update. */
  fullOnly: boolean;
}

/** The card as sent to CardKit: the rendered card with `config.streaming_mode`. */
function withStreamingMode(card: FeishuCard, on: boolean): FeishuCard {
  return { ...card, config: { ...card.config, streaming_mode: on } as FeishuCard['config'] };
}

/**
 * The one answer element whose text changed between two cards, when nothing else did; undefined
 * when anything else changed (then the card needs a full update). `null` when the cards are equal.
 */
function streamedChange(before: FeishuCard, after: FeishuCard): { elementId: string; content: string } | null | undefined {
  const { body: _b, ...restBefore } = before;
  const { body: _a, ...restAfter } = after;
  if (JSON.stringify(restBefore) !== JSON.stringify(restAfter)) return undefined;
  const a = before.body.elements;
  const b = after.body.elements;
  if (a.length !== b.length) return undefined;
  let changed: number | undefined;
  for (let i = 0; i < a.length; i++) {
    if (JSON.stringify(a[i]) === JSON.stringify(b[i])) continue;
    if (changed !== undefined) return undefined;
    changed = i;
  }
  if (changed === undefined) return null;
  const x = a[changed]!;
  const y = b[changed]!;
  if (!isStreamed(x) || !isStreamed(y) || x.element_id !== y.element_id) return undefined;
  if (JSON.stringify({ ...x, content: '' }) !== JSON.stringify({ ...y, content: '' })) return undefined;
  return { elementId: y.element_id!, content: y.content as string };
}

/**
 * True when the card shows a control that calls back (a button with a `callback` behaviour, a
 * form). While an entity is in streaming mode, "在用户交互卡片时，当服务端收到卡片的回调请求后，将无法立即更新卡片"
 * (https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview):
 * a click's in-place update would not show, so such a card is never in streaming mode.
 */
function hasCallbackControls(card: FeishuCard): boolean {
  const walk = (elements: readonly FeishuElement[] | undefined): boolean =>
    (elements ?? []).some(
      (e) =>
        e.tag === 'form' ||
        (Array.isArray(e.behaviors) && (e.behaviors as { type?: unknown }[]).some((b) => b?.type === 'callback')) ||
        walk(e.elements as FeishuElement[] | undefined) ||
        walk(e.columns as FeishuElement[] | undefined),
    );
  return walk(card.body.elements);
}

function isStreamed(e: FeishuElement): boolean {
  return e.tag === 'markdown' && typeof e.content === 'string' && STREAMED_ELEMENT.test(e.element_id ?? '');
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as K);
}

function check(answer: FeishuAnswer): FeishuAnswer {
  if (answer && typeof answer.code === 'number' && answer.code !== 0) throw new FeishuApiError(200, answer.code, answer.msg ?? '');
  return answer;
}

/** The message content that sends entity `cardId` by reference. */
function reference(cardId: string): string {
  return JSON.stringify({ type: 'card', data: { card_id: cardId } });
}

/** The card_id a message's stored content refers to, if it is a card sent by reference. */
function referencedCardId(answer: FeishuAnswer): string | undefined {
  try {
    const content = JSON.parse(answer.data?.body?.content ?? '') as { type?: unknown; data?: { card_id?: unknown } };
    return content.type === 'card' && typeof content.data?.card_id === 'string' ? content.data.card_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CardKit cannot carry this card; the transport sends it as a plain interactive card instead:
 * - `missing-scope`: the entity create was refused with 99991672 (the app lacks `cardkit:card:write`):
 *   every later create would be too, so the channel stays on plain cards;
 * - `entity-refused`: the entity and its one replacement were both refused as "cardid is invalid"
 *   (230099 / 11310) when sent by reference.
 */
export class CardKitUnavailable extends Error {
  override readonly name = 'CardKitUnavailable';
  constructor(
    readonly reason: 'missing-scope' | 'entity-refused',
    /** The scope a `missing-scope` refusal named. */
    readonly scope: string | undefined,
    readonly refusal: unknown,
  ) {
    super(`cardkit unavailable (${reason}): ${classifyFeishuError(refusal).detail}`);
  }
}

/** Sends the entity reference `content` as a message; `attempt` 0 for the first entity of a key, 1 for its replacement. */
export type PostReference = (content: string, attempt: number) => Promise<FeishuAnswer>;

/** An entity made for one idempotency key, not yet known to be in a message. */
interface PendingEntity {
  readonly cardId: string;
  readonly sequenceBase: number;
  /** 0 for the key's first entity, 1 for the replacement of a refused one. */
  readonly attempt: number;
}

/**
 * `mode: 'cardkit'`: cards as CardKit entities in streaming mode
 * (https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview).
 * - send: create the entity (`streaming_mode: true`), then send `{"type":"card","data":{"card_id"}}`
 *   with the idempotency key as `uuid`. A retried send reuses the entity created for its key, so a
 *   lost answer never creates a second one; when the platform answers with the message a first
 *   try created, the entity it refers to is used.
 * - update, only an answer element's text changed: one element-content PUT (the client types it out);
 *   anything else: a full card update. 200850 / 300309 (streaming closed): reopen with settings and
 *   write again; if that fails, full updates for the rest of the card's life.
 * - a card showing controls that call back (question buttons, Stop) is never in streaming mode: it
 *   is created, or fully updated, with `streaming_mode: false`, so a click's in-place update shows
 *   at once; once the controls are gone the next full update opens streaming again.
 * - final: one full update with `streaming_mode: false` (it replaces the entity's config too, which
 *   closes streaming; no settings call).
 * - 300317 (sequence not above the platform's): the sequence jumps a second ahead and the call is sent once more.
 * - an entity refused as "cardid is invalid" (230099 / 11310) is replaced by a new one, sent once;
 *   refused again (or the create refused for a missing scope), {@link CardKitUnavailable} is thrown
 *   and the transport sends a plain interactive card. A refused card_id is never sent again.
 * Failures are thrown for the core to classify; nothing here retries on its own otherwise.
 */
export class CardKitCards {
  readonly #client: lark.Client;
  readonly #now: () => number;
  readonly #pending = new Map<string, PendingEntity>();
  readonly #entities = new Map<string, EntityState>();

  constructor(client: lark.Client, now: () => number = Date.now) {
    this.#client = client;
    this.#now = now;
  }

  /**
   * Creates (or, on a retry, reuses) the entity for `idempotencyKey` and sends it with `post`.
   * `beforeReplacement` is awaited before the extra calls of a replacement entity (a budget slot).
   * @throws CardKitUnavailable (send a plain card instead); whatever else the create or `post` threw.
   */
  async send(card: FeishuCard, idempotencyKey: string, post: PostReference, beforeReplacement: () => Promise<void> = async () => undefined): Promise<MessageRef> {
    let pending = this.#pending.get(idempotencyKey) ?? (await this.#create(card, idempotencyKey, 0));
    let answer: FeishuAnswer;
    try {
      answer = await post(reference(pending.cardId), pending.attempt);
    } catch (error) {
      if (!isInvalidCardIdError(error)) throw error;
      this.#pending.delete(idempotencyKey);
      if (pending.attempt > 0) throw new CardKitUnavailable('entity-refused', undefined, error);
      // Resending this card_id keeps failing (F23): a new entity gets one try.
      await beforeReplacement();
      pending = await this.#create(card, idempotencyKey, 1);
      try {
        answer = await post(reference(pending.cardId), pending.attempt);
      } catch (again) {
        if (!isInvalidCardIdError(again)) throw again;
        this.#pending.delete(idempotencyKey);
        throw new CardKitUnavailable('entity-refused', undefined, again);
      }
    }
    const messageId = answer.data?.message_id;
    if (!messageId) throw new FeishuApiError(200, -1, 'send answered without data.message_id');
    this.#pending.delete(idempotencyKey);
    const cardId = referencedCardId(answer) ?? pending.cardId;
    remember(this.#entities, cardId, { cardId, sequenceBase: pending.sequenceBase, lastSequence: 0, shown: cardId === pending.cardId ? card : undefined, fullOnly: false });
    const extra: CardKitMessageExtra = { chatId: answer.data?.chat_id, cardId, sequenceBase: pending.sequenceBase };
    return { id: messageId, extra: { ...extra } };
  }

  /** Creates an entity for `idempotencyKey`, remembered until it is in a message. @throws CardKitUnavailable on a missing scope. */
  async #create(card: FeishuCard, idempotencyKey: string, attempt: number): Promise<PendingEntity> {
    const sequenceBase = this.#now();
    let answer: FeishuAnswer;
    try {
      answer = check(await FEISHU_CARDKIT_ROUTES.createCard.call(this.#client, { cardJson: JSON.stringify(withStreamingMode(card, !hasCallbackControls(card))) }));
    } catch (error) {
      const missing = missingScopeOf(error);
      if (missing) throw new CardKitUnavailable('missing-scope', missing.scope, error);
      throw error;
    }
    const cardId = answer.data?.card_id;
    if (!cardId) throw new FeishuApiError(200, -1, 'card create answered without data.card_id');
    const pending = { cardId, sequenceBase, attempt };
    remember(this.#pending, idempotencyKey, pending);
    return pending;
  }

  /** Updates the entity of `message` (see the class doc). @throws the failed call's error. */
  async update(message: MessageRef, card: FeishuCard, final: boolean): Promise<void> {
    const entity = this.#entity(message);
    if (final) {
      // One call: a full update replaces all of the entity's content, its config too
      // ("覆盖更新指定的卡片实体的所有内容", card update doc), so `streaming_mode: false` in it
      // closes streaming without a settings call.
      await this.#fullUpdate(entity, card, false);
      this.#entities.delete(entity.cardId);
      return;
    }
    // A card with controls is a full update with streaming closed (see `hasCallbackControls`).
    const controls = hasCallbackControls(card);
    const change = entity.shown && !entity.fullOnly && !controls ? streamedChange(entity.shown, card) : undefined;
    if (change === null) return;
    if (change && (await this.#stream(entity, change.elementId, change.content))) {
      entity.shown = card;
      return;
    }
    await this.#fullUpdate(entity, card, !entity.fullOnly && !controls);
  }

  /** True when the text went out; false when streaming is closed for good (the caller sends a full update). */
  async #stream(entity: EntityState, elementId: string, content: string): Promise<boolean> {
    const write = () => this.#operate(entity, (op) => FEISHU_CARDKIT_ROUTES.elementContent.call(this.#client, { ...op, elementId, content }));
    try {
      await write();
      return true;
    } catch (error) {
      if (!STREAMING_CLOSED_CODES.has(feishuCodeOf(error) ?? 0)) {
        entity.shown = undefined;
        throw error;
      }
    }
    // The streaming window ran out: open it again and write once more.
    try {
      await this.#settings(entity, true);
      await write();
      return true;
    } catch (error) {
      // Still closed, or reopening refused: full updates from now on. Anything else is for the core to retry.
      if (STREAMING_CLOSED_CODES.has(feishuCodeOf(error) ?? 0) || classifyFeishuError(error).kind === 'rejected') {
        entity.fullOnly = true;
        return false;
      }
      entity.shown = undefined;
      throw error;
    }
  }

  async #fullUpdate(entity: EntityState, card: FeishuCard, streaming: boolean): Promise<void> {
    const cardJson = JSON.stringify(withStreamingMode(card, streaming));
    entity.shown = undefined;
    await this.#operate(entity, (op) => FEISHU_CARDKIT_ROUTES.updateCard.call(this.#client, { ...op, cardJson }));
    entity.shown = card;
  }

  #settings(entity: EntityState, streaming: boolean): Promise<FeishuAnswer> {
    const settings = JSON.stringify({ config: { streaming_mode: streaming } });
    return this.#operate(entity, (op) => FEISHU_CARDKIT_ROUTES.cardSettings.call(this.#client, { ...op, settings }));
  }

  /** One operation with the next sequence; on 300317 once more with a sequence a second further. */
  async #operate(entity: EntityState, call: (op: CardOperation) => Promise<FeishuAnswer>): Promise<FeishuAnswer> {
    try {
      return check(await call(this.#nextOperation(entity)));
    } catch (error) {
      if (feishuCodeOf(error) !== SEQUENCE_CODE) throw error;
      entity.lastSequence = Math.min(MAX_SEQUENCE - 1, entity.lastSequence + 1000);
      return check(await call(this.#nextOperation(entity)));
    }
  }

  #nextOperation(entity: EntityState): CardOperation {
    const sequence = Math.min(MAX_SEQUENCE, Math.max(entity.lastSequence + 1, this.#now() - entity.sequenceBase + 1));
    entity.lastSequence = sequence;
    return { cardId: entity.cardId, sequence, uuid: `${entity.cardId}-${sequence}` };
  }

  #entity(message: MessageRef): EntityState {
    const extra = message.extra as Partial<CardKitMessageExtra> | undefined;
    const cardId = extra?.cardId as string;
    const known = this.#entities.get(cardId);
    if (known) return known;
    const state: EntityState = { cardId, sequenceBase: typeof extra?.sequenceBase === 'number' ? extra.sequenceBase : this.#now(), lastSequence: 0, shown: undefined, fullOnly: false };
    remember(this.#entities, cardId, state);
    return state;
  }
}

/** True when `message` was sent as a CardKit entity (its extra names the card_id). */
export function isCardKitMessage(message: MessageRef): boolean {
  return typeof (message.extra as Partial<CardKitMessageExtra> | undefined)?.cardId === 'string';
}
