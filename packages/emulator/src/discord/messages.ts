/** Life of a Discord message in the emulator. Deleted messages answer 10008 Unknown Message. */
export type DiscordMessageState = 'live' | 'deleted';

/** A message as the emulator holds it. */
export interface StoredDiscordMessage {
  readonly id: string;
  readonly channelId: string;
  /** `message_reference.message_id`: the message it replies to. */
  readonly replyTo?: string;
  content: string;
  embeds: unknown[];
  components: unknown[];
  state: DiscordMessageState;
  createdAt: number;
  updatedAt: number;
  edits: number;
  /** Edits made after the message was an hour old (30046). */
  oldEdits: number;
  /** Files sent with the message (multipart `files[n]`). */
  readonly attachments?: readonly DiscordAttachment[];
  /** The person who wrote it, for a message not posted by the bot ({@link DiscordEmulatorCore.postUserMessage}). */
  readonly authorId?: string;
}

/** A file a message carries. */
export interface DiscordAttachment {
  /** A snowflake-like id. */
  readonly id: string;
  readonly filename: string;
  readonly size: number;
  /** Where Discord serves it (`https://cdn.discordapp.com/attachments/<channel>/<id>/<filename>`). */
  readonly url: string;
  readonly bytes: Uint8Array;
}

/** Thrown by the emulator's controls for an unknown message. */
export class DiscordControlError extends Error {
  override readonly name = 'DiscordControlError';
}

/** Messages by id, in creation order; snowflake-like string ids. */
export class DiscordMessageStore {
  private readonly byId = new Map<string, StoredDiscordMessage>();
  private next = 1_250_000_000_000_000_000n;

  newId(): string {
    this.next += 1n;
    return String(this.next);
  }

  add(message: StoredDiscordMessage): StoredDiscordMessage {
    this.byId.set(message.id, message);
    return message;
  }

  get(id: string): StoredDiscordMessage | undefined {
    return this.byId.get(id);
  }

  /** @throws DiscordControlError for an unknown id. */
  require(id: string): StoredDiscordMessage {
    const found = this.byId.get(id);
    if (!found) throw new DiscordControlError(`no message with id ${id}`);
    return found;
  }

  list(): StoredDiscordMessage[] {
    return [...this.byId.values()];
  }
}
