/** A chat the emulated bot is in. Ids follow Telegram: users positive, groups negative, supergroups `-100…`. */
export interface TelegramChat {
  readonly id: number;
  readonly type: 'private' | 'group' | 'supergroup';
  /** A forum supergroup: messages go into topics named by `message_thread_id`. */
  readonly isForum?: boolean;
  /** The forum's topics (`message_thread_id`s) besides General. */
  readonly topics?: readonly number[];
}

/** Life of a Telegram message in the emulator. Deleted and edit-closed messages refuse editMessageText. */
export type TelegramMessageState = 'live' | 'deleted' | 'edit-closed';

/** State changes the emulator's controls may make, by current state. */
export const TELEGRAM_MESSAGE_TRANSITIONS: Readonly<Record<TelegramMessageState, readonly TelegramMessageState[]>> = {
  live: ['deleted', 'edit-closed'],
  'edit-closed': ['deleted'],
  deleted: [],
};

/** Thrown by the emulator's controls for an unknown message or chat, or a change the state table forbids. */
export class TelegramControlError extends Error {
  override readonly name = 'TelegramControlError';
}

/** A message as the emulator holds it. */
export interface StoredTelegramMessage {
  readonly chatId: number;
  readonly messageId: number;
  readonly threadId?: number;
  readonly replyTo?: number;
  /** The text as sent (HTML when `parseMode` is HTML). */
  source: string;
  parseMode?: string;
  /** The text the user sees (entities parsed). */
  text: string;
  replyMarkup?: unknown;
  state: TelegramMessageState;
  readonly createdAt: number;
  updatedAt: number;
  edits: number;
  /** The file of a document message (sendDocument). */
  readonly document?: TelegramDocument;
  /** The id of the bot that sent it (the number before its token's colon): only that bot may edit it. */
  readonly sentBy?: string;
}

/** A file a bot sent with sendDocument. */
export interface TelegramDocument {
  readonly fileId: string;
  readonly fileName: string;
  readonly size: number;
  readonly bytes: Uint8Array;
}

/** A live draft of a private chat (`sendMessageDraft`). */
export interface StoredTelegramDraft {
  readonly chatId: number;
  readonly draftId: number;
  source: string;
  text: string;
  /** Updates received for this draft id. */
  updates: number;
  updatedAt: number;
  /** Epoch ms the preview disappears unless refreshed. */
  expiresAt: number;
}

/** Messages per chat, in send order; drafts per chat and draft id. */
export class TelegramStore {
  private readonly messages = new Map<string, StoredTelegramMessage>();
  private readonly nextId = new Map<number, number>();
  readonly drafts = new Map<string, StoredTelegramDraft>();
  /** Every draft ever shown, also after it vanished or was replaced by a message. */
  readonly draftLog: StoredTelegramDraft[] = [];

  static key(chatId: number, id: number): string {
    return `${chatId}:${id}`;
  }

  newId(chatId: number): number {
    const id = (this.nextId.get(chatId) ?? 100) + 1;
    this.nextId.set(chatId, id);
    return id;
  }

  add(message: StoredTelegramMessage): StoredTelegramMessage {
    this.messages.set(TelegramStore.key(message.chatId, message.messageId), message);
    return message;
  }

  get(chatId: number, messageId: number): StoredTelegramMessage | undefined {
    return this.messages.get(TelegramStore.key(chatId, messageId));
  }

  /** @throws TelegramControlError for an unknown message. */
  require(chatId: number, messageId: number): StoredTelegramMessage {
    const found = this.get(chatId, messageId);
    if (!found) throw new TelegramControlError(`no message ${messageId} in chat ${chatId}`);
    return found;
  }

  /** @throws TelegramControlError when the state table forbids the change. */
  transition(chatId: number, messageId: number, to: TelegramMessageState): StoredTelegramMessage {
    const message = this.require(chatId, messageId);
    if (!TELEGRAM_MESSAGE_TRANSITIONS[message.state].includes(to)) throw new TelegramControlError(`message ${messageId} is ${message.state}, cannot become ${to}`);
    message.state = to;
    return message;
  }

  list(): StoredTelegramMessage[] {
    return [...this.messages.values()];
  }
}
