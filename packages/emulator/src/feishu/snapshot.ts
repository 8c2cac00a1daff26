import type { CallHistory } from '../common/history.js';
import type { InFlightTracker } from '../common/in-flight.js';
import type { StoredMessage } from './messages.js';
import type { FeishuMessageSnapshot } from './types.js';

/** A deep copy of a stored message with its call history, for read-back and change events. */
export function snapshotMessage(m: StoredMessage, history: CallHistory, inFlight: InFlightTracker): FeishuMessageSnapshot {
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
    content: m.content,
    card: m.card,
    mentions: [...m.mentions],
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    updates: m.updates,
    history: history.list({ key: m.messageId }),
    maxConcurrentCalls: inFlight.max(m.messageId),
  });
}
