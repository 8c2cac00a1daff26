import type { Hono } from 'hono';
import type { SlidingWindowLimiter } from '../common/rate-limiter.js';
import { FEISHU_ROUTES, FeishuErrors, type FeishuError } from './codes.js';
import { checkContent, MSG_TYPES } from './content-rules.js';
import type { FeishuContext } from './context.js';
import { newChatId, newMessageId, newThreadId, type StoredMessage } from './messages.js';
import { runCall, type FeishuOutcome, type FeishuRequest } from './pipeline.js';
import { resolveCardReference } from './routes-cardkit.js';
import { unknownImageKey } from './routes-resources.js';

/** receive_id_type values and what a valid receive_id looks like (message/create doc). */
const RECEIVE_ID_SHAPES: Readonly<Record<string, RegExp>> = {
  chat_id: /^oc_[A-Za-z0-9]+$/,
  open_id: /^ou_[A-Za-z0-9]+$/,
  union_id: /^on_[A-Za-z0-9]+$/,
  user_id: /^[A-Za-z0-9_-]+$/,
  email: /^[^@\s]+@[^@\s]+$/,
};

const reject = (error: FeishuError, key?: string, card?: unknown): FeishuOutcome => ({ ok: false, error, key, card });

/** Message `data` as create/reply answer it (SDK typings of `im.v1.message.create`). */
function messageData(m: StoredMessage, tenantKey: string): Record<string, unknown> {
  return {
    message_id: m.messageId,
    ...(m.rootId && { root_id: m.rootId }),
    ...(m.parentId && { parent_id: m.parentId, upper_message_id: m.parentId }),
    ...(m.threadId && { thread_id: m.threadId }),
    msg_type: m.msgType,
    create_time: String(m.createdAt),
    update_time: String(m.updatedAt),
    deleted: m.state === 'deleted',
    updated: m.updates > 0,
    chat_id: m.chatId,
    sender: { id: m.senderAppId, id_type: 'app_id', sender_type: 'app', tenant_key: tenantKey },
    body: { content: m.content },
    mentions: [],
  };
}

/** The part of send and reply that is the same: body fields, uuid de-dup, per-chat limit (`limited`: counted on arrival), content. */
function sendMessage(
  ctx: FeishuContext,
  appId: string,
  limited: FeishuError | undefined,
  body: Record<string, unknown>,
  where: { chatId: () => string; receiveIdType?: string; receiveId?: string; rootId?: string; parentId?: string; threadId?: string },
  fault?: string,
): FeishuOutcome {
  const { msg_type: msgType, content, uuid } = body;
  if (typeof msgType !== 'string' || !(MSG_TYPES as readonly string[]).includes(msgType)) return reject(FeishuErrors.invalidParam('msg_type'), fault);
  if (typeof content !== 'string' || content === '') return reject(FeishuErrors.invalidParam('content must be a non-empty JSON string'), fault);
  if (uuid !== undefined && (typeof uuid !== 'string' || uuid.length > 50)) return reject(FeishuErrors.invalidParam('uuid must be a string of at most 50 chars'), fault);
  const now = ctx.clock();
  if (uuid) {
    const existing = ctx.messages.findByUuid(appId, uuid, now, ctx.limits.uuidWindowMs);
    if (existing) return { ok: true, key: existing.messageId, fields: { data: messageData(existing, ctx.tenantKey) } };
  }
  // A CardKit card entity sent by reference: the message shows the entity's current card.
  const reference = msgType === 'interactive' ? resolveCardReference(ctx, appId, content) : undefined;
  if (reference && 'error' in reference) return reject(reference.error, fault);
  const checked = reference ? { value: { card: reference.entity.card, shared: true, mentions: [] } } : checkContent(msgType, content, ctx.limits);
  if ('error' in checked) return reject(checked.error, fault);
  const badImage = checked.value.card ? unknownImageKey(ctx, checked.value.card, appId) : undefined;
  if (badImage) return reject(badImage, fault, checked.value.card);
  const chatId = where.chatId();
  if (limited) return reject(limited, fault, checked.value.card);
  const message = ctx.messages.add({
    messageId: newMessageId(),
    chatId,
    msgType,
    senderAppId: appId,
    receiveIdType: where.receiveIdType,
    receiveId: where.receiveId,
    rootId: where.rootId,
    parentId: where.parentId,
    threadId: where.threadId,
    uuid: uuid || undefined,
    content,
    card: checked.value.card,
    shared: checked.value.shared,
    mentions: checked.value.mentions,
    createdAt: now,
    updatedAt: now,
    state: 'live',
    updates: 0,
    cardId: reference?.entity.cardId,
  });
  if (reference) reference.entity.messageId = message.messageId;
  return { ok: true, key: message.messageId, card: checked.value.card, change: 'created', fields: { data: messageData(message, ctx.tenantKey) } };
}

/** Answer for a message that can no longer be acted on, if it is one. */
function goneError(m: StoredMessage): FeishuError | undefined {
  if (m.state === 'recalled') return FeishuErrors.recalled();
  if (m.state === 'deleted') return FeishuErrors.deleted();
  return undefined;
}

/** Send (`POST /messages`), reply (`POST /messages/:id/reply`) and patch (`PATCH /messages/:id`). */
/**
 * The chat a send is counted in when it arrives: the `chat_id`, or the chat already opened with that user.
 * A first message to a user is not counted (its chat opens with it, in a window of its own).
 */
const createWindows =
  (ctx: FeishuContext) =>
  ({ body, query }: FeishuRequest): ReadonlyArray<readonly [SlidingWindowLimiter, string]> => {
    const type = query.receive_id_type;
    const receiveId = body?.receive_id;
    if (typeof receiveId !== 'string' || receiveId === '') return [];
    const chatId = type === 'chat_id' ? receiveId : ctx.p2pChats.get(`${type}:${receiveId}`);
    return chatId ? [[ctx.chatLimiter, chatId]] : [];
  };

export function mountMessageRoutes(app: Hono, ctx: FeishuContext): void {
  // The chat's history, newest first with `sort_type=ByCreateTimeDesc` (else oldest first), at most
  // `page_size` (1–50, default 20) items of `container_id_type=chat`; no paging token is answered.
  app.get('/open-apis/im/v1/messages', (c) =>
    runCall(ctx, c, { route: FEISHU_ROUTES.list, auth: true }, () => {
      if (c.req.query('container_id_type') !== 'chat') return { ok: false, error: FeishuErrors.invalidParam('container_id_type'), key: undefined } as FeishuOutcome;
      const chatId = c.req.query('container_id') ?? '';
      const size = Math.max(1, Math.min(50, Number(c.req.query('page_size') ?? 20) || 20));
      const all = ctx.messages.list().filter((m) => m.chatId === chatId && m.state !== 'deleted' && m.state !== 'recalled');
      if (c.req.query('sort_type') === 'ByCreateTimeDesc') all.reverse();
      const items = all.slice(0, size).map((m) => ({
        message_id: m.messageId,
        msg_type: m.msgType,
        create_time: String(m.createdAt),
        chat_id: m.chatId,
        ...(m.parentId ? { parent_id: m.parentId } : {}),
        sender: m.senderAppId ? { id: m.senderAppId, sender_type: 'app' } : { id: 'ou_person', sender_type: 'user' },
      }));
      return { ok: true, fields: { data: { items, has_more: all.length > size } } } as FeishuOutcome;
    }),
  );

  app.post('/open-apis/im/v1/messages', (c) =>
    runCall(ctx, c, { route: FEISHU_ROUTES.create, auth: true, windows: createWindows(ctx) }, ({ body, query, appId, limited }) => {
      const type = query.receive_id_type;
      const shape = type === undefined ? undefined : RECEIVE_ID_SHAPES[type];
      if (!shape) return reject(FeishuErrors.invalidParam(`receive_id_type ${JSON.stringify(type ?? null)}`));
      const receiveId = body?.receive_id;
      if (typeof receiveId !== 'string' || receiveId === '') return reject(FeishuErrors.invalidParam('receive_id'));
      if (!shape.test(receiveId)) return reject(FeishuErrors.invalidReceiveId());
      const chatId = () => {
        if (type === 'chat_id') return receiveId;
        const known = ctx.p2pChats.get(`${type}:${receiveId}`);
        if (known) return known;
        const created = newChatId();
        ctx.p2pChats.set(`${type}:${receiveId}`, created);
        return created;
      };
      return sendMessage(ctx, appId, limited, body ?? {}, { chatId, receiveIdType: type, receiveId });
    }),
  );

  app.post('/open-apis/im/v1/messages/:message_id/reply', (c) => {
    const parentId = c.req.param('message_id');
    const parentChat = (): ReadonlyArray<readonly [SlidingWindowLimiter, string]> => {
      const parent = ctx.messages.get(parentId);
      return parent ? [[ctx.chatLimiter, parent.chatId]] : [];
    };
    return runCall(ctx, c, { route: FEISHU_ROUTES.reply, auth: true, key: parentId, windows: parentChat }, ({ body, appId, limited }) => {
      const parent = ctx.messages.get(parentId);
      if (!parent) return reject(FeishuErrors.invalidParam(`message_id ${parentId} not found`), parentId);
      const gone = goneError(parent);
      if (gone) return reject(gone, parentId);
      const inThread = body?.reply_in_thread;
      if (inThread !== undefined && typeof inThread !== 'boolean') return reject(FeishuErrors.invalidParam('reply_in_thread must be a boolean'), parentId);
      // A reply in thread starts a topic on the message replied to (its root), or joins the one it is in;
      // a reply to a message of a topic lands in that topic either way (the reply doc's reply_in_thread:
      // a message already in topic form is replied to in topic form by default; UNCONFIRMED beyond the doc text).
      const root = parent.rootId ? ctx.messages.get(parent.rootId) : parent;
      const threadId = parent.threadId ?? root?.threadId ?? (inThread ? newThreadId() : undefined);
      if (threadId && root && !root.threadId) root.threadId = threadId;
      return sendMessage(
        ctx,
        appId,
        limited,
        body ?? {},
        { chatId: () => parent.chatId, rootId: parent.rootId ?? parent.messageId, parentId, threadId },
        parentId,
      );
    });
  });

  app.patch('/open-apis/im/v1/messages/:message_id', (c) => {
    const messageId = c.req.param('message_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.patch, auth: true, key: messageId, windows: () => [[ctx.messageLimiter, messageId]] }, ({ body, appId, limited }) => {
      const content = body?.content;
      if (typeof content !== 'string' || content === '') return reject(FeishuErrors.invalidParam('content must be a non-empty JSON string'), messageId);
      const message = ctx.messages.get(messageId);
      if (!message) return reject(FeishuErrors.invalidParam(`message_id ${messageId} not found`), messageId);
      if (message.senderAppId !== appId) return reject(FeishuErrors.noPermission(), messageId);
      if (message.msgType !== 'interactive') return reject(FeishuErrors.invalidParam('only interactive (card) messages can be patched'), messageId);
      const gone = goneError(message);
      if (gone) return reject(gone, messageId);
      if (ctx.clock() - message.createdAt >= ctx.limits.editWindowMs) return reject(FeishuErrors.tooOld(), messageId);
      if (limited) return reject(limited, messageId);
      const checked = checkContent('interactive', content, ctx.limits);
      if ('error' in checked) return reject(checked.error, messageId);
      const badImage = unknownImageKey(ctx, checked.value.card, appId);
      if (badImage) return reject(badImage, messageId, checked.value.card);
      if (!message.shared || !checked.value.shared)
        // The patch doc requires update_multi in the old and the new card; the exact code is UNCONFIRMED.
        return reject(FeishuErrors.invalidParam('card is not shared: config.update_multi must be true in the sent and the new card'), messageId, checked.value.card);
      message.content = content;
      message.card = checked.value.card;
      message.mentions = checked.value.mentions;
      message.updatedAt = ctx.clock();
      message.updates += 1;
      return { ok: true, key: messageId, card: checked.value.card, change: 'updated', fields: { data: {} } };
    });
  });

  // Recall: a bot recalls a message it sent, within the tenant's recall window (message/delete doc).
  app.delete('/open-apis/im/v1/messages/:message_id', (c) => {
    const messageId = c.req.param('message_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.recall, auth: true, key: messageId }, ({ appId }) => {
      const message = ctx.messages.get(messageId);
      if (!message) return reject(FeishuErrors.invalidParam(`message_id ${messageId} not found`), messageId);
      if (message.senderAppId !== appId) return reject(FeishuErrors.noRecallPermission(), messageId);
      const gone = goneError(message);
      if (gone) return reject(gone, messageId);
      if (ctx.clock() - message.createdAt >= ctx.limits.recallWindowMs) return reject(FeishuErrors.recallTooOld(), messageId);
      ctx.messages.transition(messageId, 'recalled');
      return { ok: true, key: messageId, change: 'recalled', fields: { data: {} } };
    });
  });
}
