/** Life of a Slack message in the emulator. Deleted and edit-closed messages refuse chat.update. */
export type SlackMessageState = 'live' | 'deleted' | 'edit-closed';

/** State changes the emulator's controls may make, by current state. */
export const SLACK_MESSAGE_TRANSITIONS: Readonly<Record<SlackMessageState, readonly SlackMessageState[]>> = {
  live: ['deleted', 'edit-closed'],
  'edit-closed': ['deleted'],
  deleted: [],
};

/** Thrown by the emulator's message controls for an unknown `ts` or a change the state table forbids. */
export class SlackMessageControlError extends Error {
  override readonly name = 'SlackMessageControlError';
}

/** A message as the emulator holds it. */
export interface StoredSlackMessage {
  readonly channel: string;
  /** Message id: the `ts` Slack answers. */
  readonly ts: string;
  /** Parent `ts` for a thread reply. */
  readonly threadTs?: string;
  /** The bot token that posted it; `''` for a person's message ({@link SlackEmulatorCore.postUserMessage}). */
  readonly botToken: string;
  /** The person who wrote it, for a message not posted by a bot. */
  readonly user?: string;
  /** A thread reply also shown in the channel (`reply_broadcast`). */
  readonly broadcast?: boolean;
  text: string;
  blocks: unknown[] | undefined;
  state: SlackMessageState;
  readonly createdAt: number;
  updatedAt: number;
  updates: number;
  /** Set on a message opened with chat.startStream. */
  stream?: SlackStream;
  /** Files the message carries (shared by files.completeUploadExternal). */
  readonly fileIds?: readonly string[];
}

/** A stream's state: `streaming` until chat.stopStream, its lifetime, or the user's Stop. */
export type SlackStreamState = 'streaming' | 'stopped' | 'stopped-by-user';

/** A streamed message's stream, as the emulator holds it. */
export interface SlackStream {
  state: SlackStreamState;
  readonly startedAt: number;
  readonly recipientUserId?: string;
  readonly taskDisplayMode: string;
  /** The latest `plan_update` title. */
  planTitle?: string;
  /** Task steps by id, latest state (`task_update` chunks: title and status replace, details append). */
  readonly tasks: Map<string, { id: string; title: string; status: string; details?: string; output?: string }>;
  /** Every chunk accepted, in order (`markdown_text` included). */
  readonly chunks: unknown[];
  /** Blocks given at chat.stopStream, shown below the text. */
  stopBlocks?: unknown[];
}

/** Messages by `ts`, in post order. */
export class SlackMessageStore {
  private readonly byTs = new Map<string, StoredSlackMessage>();
  private lastTs = 0;

  /** A fresh `ts` (`seconds.micros`, strictly increasing like Slack's). */
  nextTs(now: number): string {
    const micros = Math.max(now * 1000, this.lastTs + 1);
    this.lastTs = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  add(message: StoredSlackMessage): StoredSlackMessage {
    this.byTs.set(message.ts, message);
    return message;
  }

  get(ts: string): StoredSlackMessage | undefined {
    return this.byTs.get(ts);
  }

  /** @throws SlackMessageControlError for an unknown ts. */
  require(ts: string): StoredSlackMessage {
    const found = this.byTs.get(ts);
    if (!found) throw new SlackMessageControlError(`no message with ts ${ts}`);
    return found;
  }

  /** @throws SlackMessageControlError when the state table forbids the change. */
  transition(ts: string, to: SlackMessageState): StoredSlackMessage {
    const message = this.require(ts);
    if (!SLACK_MESSAGE_TRANSITIONS[message.state].includes(to)) throw new SlackMessageControlError(`message ${ts} is ${message.state}, cannot become ${to}`);
    message.state = to;
    return message;
  }

  list(): StoredSlackMessage[] {
    return [...this.byTs.values()];
  }
}
