import { randomHex } from '../common/ids.js';

/** Conversation types (https://learn.microsoft.com/microsoftteams/platform/bots/build-conversational-capability). */
export type TeamsConversationType = 'personal' | 'groupChat' | 'channel';

/** A conversation the bot is in. */
export interface TeamsConversation {
  /** E.g. `a:1Xyz…` (personal), `19:…@thread.v2` (group chat), `19:…@thread.tacv2` (channel). */
  readonly id: string;
  readonly type: TeamsConversationType;
}

/** A stream's state: open (`streaming`), closed by its final, stopped by the user, or past its two minutes. */
export type TeamsStreamState = 'streaming' | 'final' | 'canceled' | 'timed-out';

/** A streamed message's state (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux). */
export interface TeamsStream {
  state: TeamsStreamState;
  /** Epoch ms of the start activity. */
  readonly startedAt: number;
  /** Latest accepted `streamSequence`. */
  sequence: number;
  /** The response text streamed so far (each chunk must extend it). */
  text: string;
  /** The latest informative update (the progress line), if any. */
  informative?: string;
}

/** An activity the conversation holds. */
export interface StoredTeamsActivity {
  readonly id: string;
  readonly conversationId: string;
  /** `message`, or `typing` while a stream is open. */
  type: string;
  text: string;
  attachments: unknown[];
  readonly replyToId?: string;
  deleted: boolean;
  readonly createdAt: number;
  updatedAt: number;
  /** Accepted `PUT`s. */
  updates: number;
  /** Set for a streamed message. */
  stream?: TeamsStream;
}

/** The conversations, activities and their order. */
export class TeamsActivityStore {
  readonly conversations = new Map<string, TeamsConversation>();
  private readonly activities = new Map<string, StoredTeamsActivity>();
  /** The open stream of each conversation ("one concurrent streaming response per chat"). */
  readonly openStreams = new Map<string, string>();

  static key(conversationId: string, activityId: string): string {
    return `${conversationId}|${activityId}`;
  }

  /** A fresh activity id in Teams' style (`1:1Ab…` for 1:1 chats is not relied on by clients). */
  newId(): string {
    return `1${Date.now().toString(36)}${randomHex(8)}`;
  }

  add(activity: StoredTeamsActivity): StoredTeamsActivity {
    this.activities.set(TeamsActivityStore.key(activity.conversationId, activity.id), activity);
    return activity;
  }

  get(conversationId: string, activityId: string): StoredTeamsActivity | undefined {
    return this.activities.get(TeamsActivityStore.key(conversationId, activityId));
  }

  /** Every activity, oldest first. */
  list(): StoredTeamsActivity[] {
    return [...this.activities.values()];
  }
}

/** Size of an activity as the emulator measures it: UTF-16 bytes of its JSON (see `TeamsLimits.maxActivityBytes`). */
export function activityBytes(body: unknown): number {
  return JSON.stringify(body ?? null).length * 2;
}
