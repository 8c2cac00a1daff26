import type { Hono } from 'hono';
import { checkEntityCard, setStreaming, type StoredCardEntity } from './card-entities.js';
import { CardKitErrors, FEISHU_ROUTES, FeishuErrors, type FeishuError } from './codes.js';
import type { FeishuContext } from './context.js';
import { runCall, type FeishuOutcome } from './pipeline.js';

/** `sequence` is an int32, 1 … 2 147 483 647 (card update and settings docs). */
const MAX_SEQUENCE = 2_147_483_647;
/** `data` of a create is 1 … 3 000 000 characters (card create doc). */
const MAX_CARD_DATA_CHARS = 3_000_000;

const reject = (error: FeishuError, key?: string): FeishuOutcome => ({ ok: false, error, key });

/** Closes streaming mode when its window has run out; true when this call found it just closed. */
function closeExpiredStreaming(ctx: FeishuContext, entity: StoredCardEntity): boolean {
  if (!entity.streaming || entity.streamingOpenedAt === undefined) return false;
  if (ctx.clock() - entity.streamingOpenedAt < ctx.limits.streamingWindowMs) return false;
  entity.streaming = false;
  return true;
}

/**
 * The checks every operation on an existing entity shares, in order: exists (200740), same app
 * (300311), not older than 14 days (200750), its message not recalled or deleted (230011 / 231003;
 * what the platform answers there is UNCONFIRMED), `sequence` an int32 above the last (10002 / 300317),
 * `uuid` new (200770), 10 operations/s per entity (230020; the code is UNCONFIRMED).
 */
function checkOperation(ctx: FeishuContext, cardId: string, appId: string, body: Record<string, unknown>, limited: FeishuError | undefined): { entity: StoredCardEntity; sequence: number } | { error: FeishuError } {
  const entity = ctx.entities.get(cardId);
  if (!entity) return { error: CardKitErrors.notFound() };
  if (entity.appId !== appId) return { error: CardKitErrors.noPermission() };
  if (ctx.clock() - entity.createdAt >= ctx.limits.entityLifetimeMs) return { error: CardKitErrors.expired() };
  const message = entity.messageId ? ctx.messages.get(entity.messageId) : undefined;
  if (message?.state === 'recalled') return { error: FeishuErrors.recalled() };
  if (message?.state === 'deleted') return { error: FeishuErrors.deleted() };
  const { sequence, uuid } = body;
  if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 1 || sequence > MAX_SEQUENCE)
    return { error: CardKitErrors.invalidParam(`sequence must be an integer 1…${MAX_SEQUENCE}, got ${JSON.stringify(sequence)}`) };
  if (sequence <= entity.lastSequence) return { error: CardKitErrors.sequenceNotIncreasing() };
  if (uuid !== undefined && (typeof uuid !== 'string' || uuid.length < 1 || uuid.length > 64))
    return { error: CardKitErrors.invalidParam('uuid must be a string of 1–64 characters') };
  if (typeof uuid === 'string' && entity.uuids.has(uuid)) return { error: CardKitErrors.uuidConflict() };
  if (limited) return { error: limited };
  return { entity, sequence };
}

/** Records an accepted operation and answers it. */
function accepted(ctx: FeishuContext, entity: StoredCardEntity, sequence: number, uuid: unknown): FeishuOutcome {
  entity.lastSequence = sequence;
  if (typeof uuid === 'string') entity.uuids.add(uuid);
  entity.updatedAt = ctx.clock();
  entity.updates += 1;
  return { ok: true, key: entity.cardId, card: entity.card, change: entity.messageId ? 'updated' : undefined, changeKey: entity.messageId, fields: { data: {} } };
}

function findElement(elements: unknown, elementId: string): Record<string, unknown> | undefined {
  if (!Array.isArray(elements)) return undefined;
  for (const element of elements as Record<string, unknown>[]) {
    if (element?.element_id === elementId) return element;
    for (const key of ['elements', 'columns'] as const) {
      const nested = findElement(element?.[key], elementId);
      if (nested) return nested;
    }
  }
  return undefined;
}

/**
 * The CardKit routes: create an entity, full update, settings, and the streaming element content.
 * Streaming mode closes itself `limits.streamingWindowMs` after it was (re)opened: the element write
 * that meets the close answers 200850, later ones 300309 until settings or a full update opens it again.
 */
export function mountCardKitRoutes(app: Hono, ctx: FeishuContext): void {
  app.post('/open-apis/cardkit/v1/cards', (c) =>
    runCall(ctx, c, { route: FEISHU_ROUTES.cardCreate, auth: true }, ({ body, appId }) => {
      if (body?.type !== 'card_json') return reject(CardKitErrors.invalidParam(`type must be card_json, got ${JSON.stringify(body?.type)}`));
      const data = body.data;
      if (typeof data !== 'string' || data.length < 1 || data.length > MAX_CARD_DATA_CHARS)
        return reject(CardKitErrors.invalidParam(`data must be a string of 1–${MAX_CARD_DATA_CHARS} characters`));
      const checked = checkEntityCard(data, ctx.limits);
      if ('error' in checked) return reject(checked.error);
      const entity = ctx.entities.add(appId, checked.card, ctx.clock());
      return { ok: true, key: entity.cardId, card: entity.card, fields: { data: { card_id: entity.cardId } } };
    }),
  );

  app.put('/open-apis/cardkit/v1/cards/:card_id', (c) => {
    const cardId = c.req.param('card_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.cardUpdate, auth: true, key: cardId, windows: () => [[ctx.cardLimiter, cardId]] }, ({ body, appId, limited }) => {
      const checkedOp = checkOperation(ctx, cardId, appId, body ?? {}, limited);
      if ('error' in checkedOp) return reject(checkedOp.error, cardId);
      const card = body?.card as { type?: unknown; data?: unknown } | undefined;
      if (card?.type !== 'card_json' || typeof card.data !== 'string') return reject(CardKitErrors.invalidParam('card must be { type: card_json, data: string }'), cardId);
      const checked = checkEntityCard(card.data, ctx.limits);
      if ('error' in checked) return reject(checked.error, cardId);
      const { entity, sequence } = checkedOp;
      closeExpiredStreaming(ctx, entity);
      entity.card = checked.card;
      const mode = (checked.card.config as { streaming_mode?: unknown } | undefined)?.streaming_mode;
      setStreaming(entity, mode === true, ctx.clock());
      return accepted(ctx, entity, sequence, body?.uuid);
    });
  });

  app.patch('/open-apis/cardkit/v1/cards/:card_id/settings', (c) => {
    const cardId = c.req.param('card_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.cardSettings, auth: true, key: cardId, windows: () => [[ctx.cardLimiter, cardId]] }, ({ body, appId, limited }) => {
      const checkedOp = checkOperation(ctx, cardId, appId, body ?? {}, limited);
      if ('error' in checkedOp) return reject(checkedOp.error, cardId);
      const raw = body?.settings;
      if (typeof raw !== 'string' || raw.length < 1 || raw.length > 100_000) return reject(CardKitErrors.invalidParam('settings must be a string of 1–100000 characters'), cardId);
      let settings: { config?: Record<string, unknown>; card_link?: unknown };
      try {
        settings = JSON.parse(raw) as typeof settings;
      } catch {
        return reject(CardKitErrors.invalidParam('settings is not JSON'), cardId);
      }
      if (settings === null || typeof settings !== 'object') return reject(CardKitErrors.invalidParam('settings must be a JSON object'), cardId);
      if (settings.config?.update_multi === false) return reject({ status: 400, code: 300302, msg: 'update_multi property is false' }, cardId);
      const { entity, sequence } = checkedOp;
      closeExpiredStreaming(ctx, entity);
      entity.card = {
        ...entity.card,
        config: { ...(entity.card.config as Record<string, unknown> | undefined), ...settings.config },
        ...(settings.card_link !== undefined && { card_link: settings.card_link }),
      };
      const mode = settings.config?.streaming_mode;
      if (typeof mode === 'boolean') setStreaming(entity, mode, ctx.clock());
      return accepted(ctx, entity, sequence, body?.uuid);
    });
  });

  app.put('/open-apis/cardkit/v1/cards/:card_id/elements/:element_id/content', (c) => {
    const cardId = c.req.param('card_id');
    const elementId = c.req.param('element_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.elementContent, auth: true, key: cardId, windows: () => [[ctx.cardLimiter, cardId]] }, ({ body, appId, limited }) => {
      const checkedOp = checkOperation(ctx, cardId, appId, body ?? {}, limited);
      if ('error' in checkedOp) return reject(checkedOp.error, cardId);
      const { entity, sequence } = checkedOp;
      const content = body?.content;
      if (typeof content !== 'string') return reject(CardKitErrors.invalidParam('content must be a string'), cardId);
      if (closeExpiredStreaming(ctx, entity)) return reject(CardKitErrors.streamingTimeout(), cardId);
      if (!entity.streaming) return reject(CardKitErrors.streamingClosed(), cardId);
      const card = structuredClone(entity.card);
      const element = findElement((card.body as { elements?: unknown } | undefined)?.elements, elementId);
      if (!element) return reject(CardKitErrors.elementNotFound(elementId), cardId);
      if (element.tag !== 'markdown' && element.tag !== 'plain_text')
        return reject(CardKitErrors.invalidParam(`element ${elementId} is a ${String(element.tag)}; only markdown and plain_text stream`), cardId);
      element.content = content;
      if (Buffer.byteLength(JSON.stringify(card), 'utf8') > ctx.limits.maxCardBytes) return reject(CardKitErrors.tooLarge(), cardId);
      entity.card = card;
      return accepted(ctx, entity, sequence, body?.uuid);
    });
  });
}

/**
 * Resolves `{"type":"card","data":{"card_id":…}}` content of a message send: the entity must exist,
 * belong to the app and not have been sent yet ("一个卡片实体，仅支持发送一次", card create doc). The
 * platform's codes for these refusals are UNCONFIRMED (answered as 230001).
 */
export function resolveCardReference(ctx: FeishuContext, appId: string, content: string): { entity: StoredCardEntity } | { error: FeishuError } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  const reference = parsed as { type?: unknown; data?: { card_id?: unknown } } | null;
  if (reference?.type !== 'card') return undefined;
  const cardId = reference.data?.card_id;
  if (typeof cardId !== 'string') return { error: FeishuErrors.invalidParam('data.card_id must be a string') };
  const entity = ctx.entities.get(cardId);
  if (!entity) return { error: FeishuErrors.invalidParam(`card entity ${cardId} not found`) };
  if (entity.appId !== appId) return { error: FeishuErrors.noPermission() };
  if (entity.messageId) return { error: FeishuErrors.invalidParam(`card entity ${cardId} was already sent (one send per entity)`) };
  return { entity };
}
