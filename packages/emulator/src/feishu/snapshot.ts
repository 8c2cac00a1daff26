import type { CallHistory } from '../common/history.js';
import type { InFlightTracker } from '../common/in-flight.js';
import type { StoredCardEntity } from './card-entities.js';
import type { StoredMessage } from './messages.js';
import type { FeishuMessageSnapshot } from './types.js';

/**
 * A deep copy of a stored message with its call history, for read-back and change events. A message
 * sent by reference to a CardKit card entity shows the entity's current card, and its history and
 * counts include the entity's operations.
 */
export function snapshotMessage(m: StoredMessage, history: CallHistory, inFlight: InFlightTracker, entity?: StoredCardEntity): FeishuMessageSnapshot {
  const calls = history.list({ key: m.messageId });
  if (entity) calls.push(...history.list({ key: entity.cardId }));
  calls.sort((a, b) => a.seq - b.seq);
  return structuredClone({
    messageId: m.messageId,
    chatId: m.chatId,
    msgType: m.msgType,
    state: m.state,
    senderAppId: m.senderAppId,
    receiveIdType: m.receiveIdType,
    receiveId: m.receiveId,
    rootId: m.rootId,
    parentId: m.parentId,
    threadId: m.threadId,
    uuid: m.uuid,
    cardId: m.cardId,
    content: m.content,
    card: entity ? entity.card : m.card,
    mentions: [...m.mentions],
    createdAt: m.createdAt,
    updatedAt: entity ? Math.max(m.updatedAt, entity.updatedAt) : m.updatedAt,
    updates: m.updates + (entity?.updates ?? 0),
    history: calls,
    maxConcurrentCalls: Math.max(inFlight.max(m.messageId), entity ? inFlight.max(entity.cardId) : 0),
  });
}
