import { randomHex } from '../common/ids.js';

/** Lifecycle of a message. `recalled` and `deleted` are terminal: the message can no longer be patched. */
export type MessageState = 'live' | 'recalled' | 'deleted';

/** Allowed state changes. */
export const MESSAGE_TRANSITIONS: Readonly<Record<MessageState, readonly MessageState[]>> = {
  live: ['recalled', 'deleted'],
  recalled: [],
  deleted: [],
};

/** What identifies a message and where it was sent; fixed once it exists. */
export interface MessageIdentity {
  readonly messageId: string;
  readonly chatId: string;
  readonly msgType: string;
  readonly senderAppId: string;
  readonly receiveIdType?: string;
  readonly receiveId?: string;
  readonly rootId?: string;
  readonly parentId?: string;
  readonly threadId?: string;
  readonly uuid?: string;
}

/** A message as the emulator stores it. Times are epoch ms on the emulator clock. */
export interface StoredMessage extends MessageIdentity {
  /** The topic the message is in; set on the root message when the first reply in thread starts one. */
  threadId?: string;
  /** The current content string, as last accepted. */
  content: string;
  /** The current card parsed, for `interactive` messages. */
  card?: Record<string, unknown>;
  /** Whether the current card is shared (`update_multi`), i.e. may be patched. */
  shared: boolean;
  /** `<at>` mentions in the current card's markdown. */
  mentions: readonly string[];
  createdAt: number;
  updatedAt: number;
  state: MessageState;
  /** Accepted patches so far. */
  updates: number;
  /** The CardKit card entity the message was sent by reference (its card is the entity's). */
  readonly cardId?: string;
}

/** Thrown for a control call on an unknown message or an illegal state change. */
export class FeishuMessageControlError extends Error {
  override readonly name = 'FeishuMessageControlError';
}

/** `om_` + 32 hex, like real message ids. */
export function newMessageId(): string {
  return `om_${randomHex(32)}`;
}

/** `oc_` + 32 hex, like real chat ids. */
export function newChatId(): string {
  return `oc_${randomHex(32)}`;
}

/** `omt_` + 16 hex, like real thread ids. */
export function newThreadId(): string {
  return `omt_${randomHex(16)}`;
}

/** In-memory message store with uuid de-duplication. */
export class MessageStore {
  private readonly messages = new Map<string, StoredMessage>();
  private readonly byUuid = new Map<string, { messageId: string; at: number }>();

  add(message: StoredMessage): StoredMessage {
    this.messages.set(message.messageId, message);
    if (message.uuid) this.byUuid.set(`${message.senderAppId}\u0000${message.uuid}`, { messageId: message.messageId, at: message.createdAt });
    return message;
  }

  get(messageId: string): StoredMessage | undefined {
    return this.messages.get(messageId);
  }

  /** @throws FeishuMessageControlError when the message does not exist. */
  require(messageId: string): StoredMessage {
    const message = this.messages.get(messageId);
    if (!message) throw new FeishuMessageControlError(`unknown message_id ${JSON.stringify(messageId)}`);
    return message;
  }

  /** The message an app sent with `uuid` within `windowMs` before `now`, if any. */
  findByUuid(appId: string, uuid: string, now: number, windowMs: number): StoredMessage | undefined {
    const hit = this.byUuid.get(`${appId}\u0000${uuid}`);
    if (!hit || now - hit.at >= windowMs) return undefined;
    return this.messages.get(hit.messageId);
  }

  /** @throws FeishuMessageControlError naming the message and both states when the change is not allowed. */
  transition(messageId: string, to: MessageState): StoredMessage {
    const message = this.require(messageId);
    if (!MESSAGE_TRANSITIONS[message.state].includes(to))
      throw new FeishuMessageControlError(`message ${messageId} cannot go from ${message.state} to ${to}`);
    message.state = to;
    return message;
  }

  /** Messages in creation order. */
  list(): StoredMessage[] {
    return [...this.messages.values()];
  }
}
