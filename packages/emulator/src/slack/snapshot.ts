import type { CallHistory, CallRecord } from '../common/history.js';
import type { InFlightTracker } from '../common/in-flight.js';
import type { SlackMessageState, SlackStreamState, StoredSlackMessage } from './messages.js';
import type { SlackStreams } from './streams.js';

/** A message with its calls, as read back. */
export interface SlackMessageSnapshot {
  readonly channel: string;
  readonly ts: string;
  readonly threadTs?: string;
  readonly text: string;
  readonly blocks: unknown[] | undefined;
  readonly state: SlackMessageState;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly updates: number;
  /** Every call about this message (its post and its updates), accepted or not. */
  readonly history: CallRecord[];
  /** Most requests about this message processed at once. */
  readonly maxConcurrentCalls: number;
  /** Set on a message opened with chat.startStream: its stream, as the user sees it. */
  readonly stream?: SlackStreamSnapshot;
  /** Ids of the files the message carries (see `SlackEmulatorCore.files`). */
  readonly fileIds?: readonly string[];
}

/** A streamed message's stream (its text is the message's `text`; blocks given at stop are its `blocks`). */
export interface SlackStreamSnapshot {
  /** `streaming` only while it still takes appends (its lifetime not over). */
  readonly state: SlackStreamState | 'expired';
  readonly startedAt: number;
  readonly taskDisplayMode: string;
  readonly recipientUserId?: string;
  readonly planTitle?: string;
  /** Task steps in first-seen order, latest state. */
  readonly tasks: readonly { readonly id: string; readonly title: string; readonly status: string; readonly details?: string; readonly output?: string }[];
  /** Every chunk accepted, in order. */
  readonly chunks: readonly unknown[];
}

/** Message `m` as read back (a deep copy): its calls from `history`, its most concurrent calls from `inFlight`. */
export function slackSnapshot(m: StoredSlackMessage, history: CallHistory, inFlight: InFlightTracker, streams: SlackStreams): SlackMessageSnapshot {
  return structuredClone({
    channel: m.channel,
    ts: m.ts,
    ...(m.threadTs ? { threadTs: m.threadTs } : {}),
    text: m.text,
    blocks: m.blocks,
    state: m.state,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    updates: m.updates,
    history: history.list({ key: m.ts }),
    maxConcurrentCalls: inFlight.max(m.ts),
    ...(m.fileIds ? { fileIds: m.fileIds } : {}),
    ...(m.stream
      ? {
          stream: {
            state: m.stream.state === 'streaming' && !streams.isStreaming(m) ? 'expired' : m.stream.state,
            startedAt: m.stream.startedAt,
            taskDisplayMode: m.stream.taskDisplayMode,
            ...(m.stream.recipientUserId ? { recipientUserId: m.stream.recipientUserId } : {}),
            ...(m.stream.planTitle ? { planTitle: m.stream.planTitle } : {}),
            tasks: [...m.stream.tasks.values()],
            chunks: m.stream.chunks,
          },
        }
      : {}),
  });
}
