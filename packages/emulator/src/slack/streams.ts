import type { Clock } from '../common/clock.js';
import { SlidingWindowLimiter } from '../common/rate-limiter.js';
import { blockProblem } from './blocks.js';
import { SLACK_ROUTES, SlackErrors, type SlackError } from './codes.js';
import type { SlackLimits } from './limits.js';
import type { SlackMessageStore, SlackStream, StoredSlackMessage } from './messages.js';
import { parseJsonArray } from './request.js';

/** What a Web API handler answers: `key` names the message the call was about (history, in-flight counts). */
export type SlackOutcome =
  | { ok: true; key?: string; fields: Record<string, unknown>; card?: unknown; change?: 'posted' | 'updated' | 'deleted' | 'edit-closed' }
  | { ok: false; error: SlackError; key?: string };

const fail = (error: SlackError, key?: string): SlackOutcome => ({ ok: false, error, key });

/** An assistant thread's status (assistant.threads.setStatus). */
export interface SlackThreadStatus {
  readonly status: string;
  readonly loadingMessages: readonly string[];
  /** Epoch ms it was set. */
  readonly setAt: number;
}

const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);

/** Why a chunk breaks the documented shapes (`@slack/types` chunk.d.ts), or undefined. */
function chunkProblem(chunk: unknown, limits: SlackLimits): string | undefined {
  const c = chunk as { type?: unknown; text?: unknown; title?: unknown; id?: unknown; status?: unknown; blocks?: unknown } | null;
  if (typeof c !== 'object' || c === null) return 'not an object';
  switch (c.type) {
    case 'markdown_text':
      return typeof c.text === 'string' && [...c.text].length <= limits.maxMarkdownChars ? undefined : 'markdown_text needs text of at most 12 000 characters';
    case 'plan_update':
      return typeof c.title === 'string' && c.title !== '' ? undefined : 'plan_update needs a title';
    case 'task_update':
      if (typeof c.id !== 'string' || c.id === '' || typeof c.title !== 'string') return 'task_update needs id and title';
      return TASK_STATUSES.has(c.status as string) ? undefined : `task_update status ${String(c.status)} (pending, in_progress, complete or error)`;
    case 'blocks':
      return blockProblem(c.blocks, limits);
    default:
      return `unknown chunk type ${String(c.type)}`;
  }
}

/**
 * Slack's native streaming and thread status in the emulator: chat.startStream / appendStream /
 * stopStream (https://docs.slack.dev/reference/methods/chat.startStream and its siblings) and
 * assistant.threads.setStatus. A stream is a thread reply owned by the app that started it; it
 * takes appends until chat.stopStream, the user's Stop ({@link stopByUser}), or its lifetime
 * (`limits.streamLifetimeMs` after the start, absolute: not documented, see `SlackLimits`), and
 * answers `message_not_in_streaming_state` / `stopped_by_user` after that.
 */
export class SlackStreams {
  private readonly startStop: SlidingWindowLimiter;
  private readonly appends: SlidingWindowLimiter;
  private readonly statuses = new Map<string, SlackThreadStatus>();

  constructor(
    private readonly store: SlackMessageStore,
    private readonly limits: SlackLimits,
    private readonly clock: Clock,
    private readonly channelError: (channel: unknown) => SlackError | undefined,
  ) {
    this.startStop = new SlidingWindowLimiter(limits.streamStartStopWindows, clock);
    this.appends = new SlidingWindowLimiter(limits.appendStreamWindows, clock);
  }

  /** True while `message` streams (its lifetime not yet over). */
  isStreaming(message: StoredSlackMessage): boolean {
    const stream = message.stream;
    if (stream?.state !== 'streaming') return false;
    return this.clock() - stream.startedAt <= this.limits.streamLifetimeMs;
  }

  /** The windows a call of `route` by `token` is counted in when it arrives (none for routes that are not a stream's). */
  windowsOf(route: string, token: string): ReadonlyArray<readonly [SlidingWindowLimiter, string]> {
    if (route === SLACK_ROUTES.startStream) return [[this.startStop, `${token}:start`]];
    if (route === SLACK_ROUTES.appendStream) return [[this.appends, token]];
    if (route === SLACK_ROUTES.stopStream) return [[this.startStop, `${token}:stop`]];
    return [];
  }

  /** `limited`: the rate-limit answer when the call arrived in a full window ({@link windowsOf}). */
  start(args: Record<string, unknown>, token: string, limited?: SlackError): SlackOutcome {
    const channelProblem = this.channelError(args.channel);
    if (channelProblem) return fail(channelProblem);
    const channel = args.channel as string;
    const threadTs = typeof args.thread_ts === 'string' && args.thread_ts !== '' ? args.thread_ts : undefined;
    // "Streamed messages should always be replies to a user request": the emulator requires the
    // thread (UNCONFIRMED whether Slack refuses a top-level stream, and with which code).
    if (!threadTs || this.store.get(threadTs)?.channel !== channel) return fail(SlackErrors.threadNotFound());
    // "Required when streaming to channels"; a DM (`D…`) needs neither.
    if (!channel.startsWith('D')) {
      if (typeof args.recipient_user_id !== 'string' || args.recipient_user_id === '') return fail(SlackErrors.missingRecipientUserId());
      if (typeof args.recipient_team_id !== 'string' || args.recipient_team_id === '') return fail(SlackErrors.missingRecipientTeamId());
    }
    const content = this.content(args);
    if ('error' in content) return fail(content.error);
    if (limited) return fail(limited);
    const now = this.clock();
    const stream: SlackStream = {
      state: 'streaming',
      startedAt: now,
      ...(typeof args.recipient_user_id === 'string' ? { recipientUserId: args.recipient_user_id } : {}),
      taskDisplayMode: typeof args.task_display_mode === 'string' ? args.task_display_mode : 'timeline',
      tasks: new Map(),
      chunks: [],
    };
    const message = this.store.add({ channel, ts: this.store.nextTs(now), threadTs, botToken: token, text: '', blocks: undefined, state: 'live', createdAt: now, updatedAt: now, updates: 0, stream });
    this.apply(message, content.chunks);
    this.statuses.delete(`${channel}:${threadTs}`);
    return { ok: true, key: message.ts, change: 'posted', fields: { channel, ts: message.ts } };
  }

  append(args: Record<string, unknown>, token: string, limited?: SlackError): SlackOutcome {
    const found = this.streamOf(args, token);
    if ('error' in found) return fail(found.error, found.key);
    const content = this.content(args);
    if ('error' in content) return fail(content.error, found.message.ts);
    if (content.chunks.length === 0) return fail(SlackErrors.noText(), found.message.ts);
    if (limited) return fail(limited, found.message.ts);
    this.apply(found.message, content.chunks);
    return { ok: true, key: found.message.ts, change: 'updated', fields: { channel: found.message.channel, ts: found.message.ts } };
  }

  stop(args: Record<string, unknown>, token: string, limited?: SlackError): SlackOutcome {
    const found = this.streamOf(args, token);
    if ('error' in found) return fail(found.error, found.key);
    const { message } = found;
    const content = this.content(args);
    if ('error' in content) return fail(content.error, message.ts);
    const blocks = parseJsonArray(args.blocks);
    if (blocks === 'bad') return fail(SlackErrors.invalidBlocksFormat(), message.ts);
    // stopStream's `blocks` have "their own 50-block limit" (chat.stopStream arguments).
    if (blocks && blocks.length > this.limits.maxBlocks) return fail(SlackErrors.msgBlocksTooMany(), message.ts);
    if (blocks && blockProblem(blocks, this.limits)) return fail(SlackErrors.invalidBlocks(), message.ts);
    if (limited) return fail(limited, message.ts);
    this.apply(message, content.chunks);
    message.stream!.state = 'stopped';
    if (blocks) {
      message.stream!.stopBlocks = blocks;
      message.blocks = blocks;
    }
    return { ok: true, key: message.ts, change: 'updated', fields: { channel: message.channel, ts: message.ts, message: { type: 'message', ts: message.ts, text: message.text, ...(blocks ? { blocks } : {}) } } };
  }

  setStatus(args: Record<string, unknown>): SlackOutcome {
    const channelProblem = this.channelError(args.channel_id);
    if (channelProblem) return fail(channelProblem);
    const channel = args.channel_id as string;
    const threadTs = typeof args.thread_ts === 'string' ? args.thread_ts : '';
    if (this.store.get(threadTs)?.channel !== channel) return fail(SlackErrors.invalidThreadTs());
    if (typeof args.status !== 'string') return fail(SlackErrors.invalidArguments());
    const loading = parseJsonArray(args.loading_messages);
    const key = `${channel}:${threadTs}`;
    if (args.status === '') this.statuses.delete(key);
    else this.statuses.set(key, { status: args.status, loadingMessages: Array.isArray(loading) ? loading.map(String).slice(0, 10) : [], setAt: this.clock() });
    return { ok: true, fields: {} };
  }

  /** The thread's status now: cleared after `statusTimeoutMs` or by the app's next message in the thread. */
  status(channel: string, threadTs: string): SlackThreadStatus | undefined {
    const key = `${channel}:${threadTs}`;
    const status = this.statuses.get(key);
    if (!status) return undefined;
    const posted = this.store.list().some((m) => m.channel === channel && m.threadTs === threadTs && m.createdAt >= status.setAt);
    if (posted || this.clock() - status.setAt > this.limits.statusTimeoutMs) {
      this.statuses.delete(key);
      return undefined;
    }
    return status;
  }

  /** The user presses Stop on the streamed message `ts`. @returns false when it does not stream. */
  stopByUser(ts: string): boolean {
    const message = this.store.get(ts);
    if (!message || !this.isStreaming(message)) return false;
    message.stream!.state = 'stopped-by-user';
    return true;
  }

  private streamOf(args: Record<string, unknown>, token: string): { message: StoredSlackMessage } | { error: SlackError; key?: string } {
    const ts = typeof args.ts === 'string' ? args.ts : '';
    const channelProblem = this.channelError(args.channel);
    if (channelProblem) return { error: channelProblem, key: ts };
    const message = this.store.get(ts);
    if (!message || message.channel !== args.channel || message.state === 'deleted' || !message.stream) return { error: SlackErrors.messageNotFound(), key: ts };
    if (message.botToken !== token) return { error: SlackErrors.messageNotOwnedByApp(), key: ts };
    if (message.stream.state === 'stopped-by-user') return { error: SlackErrors.stoppedByUser(), key: ts };
    if (!this.isStreaming(message)) return { error: SlackErrors.messageNotInStreamingState(), key: ts };
    return { message };
  }

  /** `markdown_text` and `chunks` of a call, checked, as one list of chunks. */
  private content(args: Record<string, unknown>): { chunks: unknown[] } | { error: SlackError } {
    const chunks: unknown[] = [];
    if (args.markdown_text !== undefined) {
      if (typeof args.markdown_text !== 'string' || [...args.markdown_text].length > this.limits.maxMarkdownChars) return { error: SlackErrors.msgTooLong() };
      if (args.markdown_text !== '') chunks.push({ type: 'markdown_text', text: args.markdown_text });
    }
    const given = parseJsonArray(args.chunks);
    if (given === 'bad') return { error: SlackErrors.invalidChunks() };
    for (const chunk of given ?? []) {
      if (chunkProblem(chunk, this.limits)) return { error: SlackErrors.invalidChunks() };
      chunks.push(chunk);
    }
    return { chunks };
  }

  private apply(message: StoredSlackMessage, chunks: readonly unknown[]): void {
    const stream = message.stream!;
    for (const chunk of chunks) {
      const c = chunk as { type: string; text?: string; title?: string; id?: string; status?: string; details?: string; output?: string; blocks?: unknown[] };
      stream.chunks.push(chunk);
      if (c.type === 'markdown_text') message.text += c.text!;
      else if (c.type === 'plan_update') stream.planTitle = c.title!;
      else if (c.type === 'task_update') {
        const known = stream.tasks.get(c.id!);
        stream.tasks.set(c.id!, {
          id: c.id!,
          title: c.title!,
          status: c.status!,
          // Observed: `details` appends, title and status replace (third-party reports, UNCONFIRMED in Slack's docs).
          ...(known?.details || c.details ? { details: `${known?.details ?? ''}${c.details ?? ''}` } : {}),
          ...(c.output ?? known?.output ? { output: c.output ?? known?.output } : {}),
        });
      }
    }
    message.updatedAt = this.clock();
    message.updates += 1;
  }
}
