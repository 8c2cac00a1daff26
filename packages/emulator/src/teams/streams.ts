import type { Clock } from '../common/clock.js';
import { activityBytes, type StoredTeamsActivity, type TeamsActivityStore, type TeamsConversation } from './activities.js';
import { TeamsErrors, type TeamsError } from './codes.js';
import type { TeamsLimits } from './limits.js';

/** The `streaminfo` entity of a streaming activity. */
export interface StreamInfo {
  readonly streamId?: string;
  readonly streamType: 'informative' | 'streaming' | 'final';
  readonly streamSequence?: number;
}

/** What the stream rules answer: the stored activity (201 for a start, 202 after), or an error. */
export type StreamOutcome =
  | { readonly ok: true; readonly status: 201 | 202; readonly activity: StoredTeamsActivity; readonly body: Record<string, unknown>; readonly dropped?: boolean }
  | { readonly ok: false; readonly error: TeamsError; readonly key?: string };

/** The `streaminfo` entity of an activity, if it has one (also mirrored in `channelData` by the Teams SDK). */
export function streamInfoOf(activity: Record<string, unknown>): StreamInfo | undefined {
  const entities = Array.isArray(activity.entities) ? (activity.entities as Record<string, unknown>[]) : [];
  const entity = entities.find((e) => e && typeof e === 'object' && e.type === 'streaminfo');
  if (!entity) return undefined;
  const type = entity.streamType ?? 'streaming';
  return {
    ...(typeof entity.streamId === 'string' ? { streamId: entity.streamId } : {}),
    streamType: type === 'informative' || type === 'final' ? type : 'streaming',
    ...(typeof entity.streamSequence === 'number' ? { streamSequence: entity.streamSequence } : {}),
  };
}

/**
 * Teams' streaming rules (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux): 1:1 chats
 * only; one open stream per chat; the start (no `streamId`, `streamSequence` 1, text required) answers 201
 * with the stream id; later chunks name it, raise the sequence (an older one is dropped with 202
 * `ContentStreamSequenceOrderPreConditionFailed`) and must extend the streamed text; the final (a `message`,
 * no sequence) closes it and may carry attachments; informative updates at most 1000 characters; the
 * stream ends two minutes after its start; the user's Stop ends it too.
 */
export class TeamsStreams {
  constructor(
    private readonly store: TeamsActivityStore,
    private readonly limits: TeamsLimits,
    private readonly clock: Clock,
  ) {}

  /** Applies a streaming activity posted to `conversation`. */
  apply(conversation: TeamsConversation, body: Record<string, unknown>, info: StreamInfo): StreamOutcome {
    if (conversation.type !== 'personal') return { ok: false, error: TeamsErrors.streamNotAllowed() };
    const text = typeof body.text === 'string' ? body.text : '';
    const attachments = Array.isArray(body.attachments) ? body.attachments : [];
    if (info.streamType === 'informative' && [...text].length > this.limits.maxInformativeChars) return { ok: false, error: TeamsErrors.badRequest('Informative message should not exceed 1000 characters') };
    if (info.streamType !== 'final' && attachments.length > 0) return { ok: false, error: TeamsErrors.badRequest('Attachments are only allowed on the final streaming message') };
    if (info.streamType !== 'final' && body.type !== 'typing') return { ok: false, error: TeamsErrors.badRequest('Streaming activities should be of type typing') };
    if (info.streamType === 'final' && body.type !== 'message') return { ok: false, error: TeamsErrors.badRequest('The final streaming activity should be of type message') };
    if (info.streamId === undefined) return this.#start(conversation, body, info, text);
    const activity = this.store.get(conversation.id, info.streamId);
    if (!activity?.stream || activity.deleted) return { ok: false, error: TeamsErrors.badRequest(`Unknown streamId ${info.streamId}`), key: info.streamId };
    const stream = activity.stream;
    this.expire(activity);
    if (stream.state === 'final') return { ok: false, error: TeamsErrors.streamCompleted(), key: activity.id };
    if (stream.state === 'canceled') return { ok: false, error: TeamsErrors.streamCanceled(), key: activity.id };
    if (stream.state === 'timed-out') return { ok: false, error: TeamsErrors.streamTimedOut(), key: activity.id };
    if (info.streamType !== 'final') {
      if (info.streamSequence === undefined) return { ok: false, error: TeamsErrors.badRequest('streamSequence is required'), key: activity.id };
      if (info.streamSequence <= stream.sequence) return { ok: true, status: 202, activity, dropped: true, body: { error: { code: 'ContentStreamSequenceOrderPreConditionFailed', message: 'PreCondition failed exception when processing streaming activity.' } } };
    } else if (info.streamSequence !== undefined) {
      return { ok: false, error: TeamsErrors.badRequest('The final streaming message should not have streamSequence'), key: activity.id };
    }
    if (info.streamType !== 'informative' && !text.startsWith(stream.text)) return { ok: false, error: TeamsErrors.badRequest('Streamed text must include the previously streamed content'), key: activity.id };
    if (activityBytes(body) > this.limits.maxActivityBytes) return { ok: false, error: TeamsErrors.streamTooLarge(), key: activity.id };
    if (info.streamType === 'informative') stream.informative = text;
    else stream.text = text;
    if (info.streamSequence !== undefined) stream.sequence = info.streamSequence;
    activity.text = stream.text;
    activity.updatedAt = this.clock();
    if (info.streamType === 'final') {
      stream.state = 'final';
      activity.type = 'message';
      activity.attachments = attachments;
      this.store.openStreams.delete(conversation.id);
    }
    return { ok: true, status: 202, activity, body: {} };
  }

  #start(conversation: TeamsConversation, body: Record<string, unknown>, info: StreamInfo, text: string): StreamOutcome {
    if (info.streamType === 'final') return { ok: false, error: TeamsErrors.badRequest('A final streaming message needs the streamId') };
    if (text === '') return { ok: false, error: TeamsErrors.badRequest('Start streaming activities should include text') };
    if (info.streamSequence !== 1) return { ok: false, error: TeamsErrors.badRequest('The first streaming activity should have streamSequence 1') };
    if (activityBytes(body) > this.limits.maxActivityBytes) return { ok: false, error: TeamsErrors.streamTooLarge() };
    const open = this.store.openStreams.get(conversation.id);
    const busy = open === undefined ? undefined : this.store.get(conversation.id, open);
    if (busy) this.expire(busy);
    if (busy?.stream?.state === 'streaming') return { ok: false, error: TeamsErrors.streamBusy() };
    const now = this.clock();
    const informative = info.streamType === 'informative';
    const activity = this.store.add({
      id: this.store.newId(),
      conversationId: conversation.id,
      type: 'typing',
      text: informative ? '' : text,
      attachments: [],
      deleted: false,
      createdAt: now,
      updatedAt: now,
      updates: 0,
      stream: { state: 'streaming', startedAt: now, sequence: 1, text: informative ? '' : text, ...(informative ? { informative: text } : {}) },
    });
    this.store.openStreams.set(conversation.id, activity.id);
    return { ok: true, status: 201, activity, body: { id: activity.id } };
  }

  /** Marks `activity`'s stream timed out once its two minutes are over. */
  expire(activity: StoredTeamsActivity): void {
    const stream = activity.stream;
    if (stream?.state === 'streaming' && this.clock() - stream.startedAt >= this.limits.streamLifetimeMs) {
      stream.state = 'timed-out';
      if (this.store.openStreams.get(activity.conversationId) === activity.id) this.store.openStreams.delete(activity.conversationId);
    }
  }

  /** The user presses Stop on the stream: later chunks answer 403 "Content stream was canceled by user". */
  cancel(activity: StoredTeamsActivity): void {
    if (!activity.stream) throw new Error(`activity ${activity.id} is not a streamed message`);
    this.expire(activity);
    if (activity.stream.state !== 'streaming') return;
    activity.stream.state = 'canceled';
    if (this.store.openStreams.get(activity.conversationId) === activity.id) this.store.openStreams.delete(activity.conversationId);
  }
}
