import { z } from 'zod';
import { formatFooter, type FooterStyle } from '../card/format/footer.js';
import { imagePlaceholderText } from './kit/images.js';
import { parseTimingOverrides } from './kit/config.js';
import { noticeText } from './kit/notice.js';
import type { ChannelSettings, ChannelPlugin, CallFailure, MessageRef, ReplyToMessage, Requester } from './contract.js';
import { changedFilesLines, noProgressNote, planHeading, planLines } from './kit/sections.js';
import { resolveFeatureSwitches } from './kit/switches.js';
import { isTerminalStatus, type CardStatus, type CardView } from '../card/view.js';
import { MemoryStreamFailure, MemoryStreams, type MemoryStream, type MemoryStreamCall, type MemoryStreamOptions } from './memory-stream.js';

export type { MemoryStream, MemoryStreamOptions } from './memory-stream.js';

/** What the in-memory channel renders: plain data, easy to assert on. */
export interface MemoryPayload {
  readonly format: 'rich' | 'text';
  readonly status: CardStatus;
  readonly title: string;
  readonly round: number;
  readonly tools: readonly string[];
  readonly thinking: string;
  readonly answer: string;
  readonly footer: string;
  /** Error text of a failed run, reason of a cancelled one. */
  readonly error?: string;
  /** Set on continuation parts: the part number (2..n); absent on the main card. */
  readonly part?: number;
  /** The card's liveness notice (see `CardView.notice`), as text in UTC; absent when none. */
  readonly notice?: string;
  /** The plan: its heading (`Plan · 2 / 5`) and checklist lines (`✅ …`); absent without a plan. */
  readonly plan?: readonly string[];
  /** On a final card that changed files: the summary heading and one item per file. */
  readonly changedFiles?: readonly string[];
  /** The liveness note (`⏳ No new progress since 12:03`, UTC) while a running card is quiet. */
  readonly note?: string;
  /** The card's images as the text shown in their place (`[image: chart]`): this channel uploads nothing. */
  readonly images?: readonly string[];
}

/** One call the in-memory channel received. `at` is epoch ms on the wall/fake clock. */
export interface MemoryCall {
  /** `send` / `update` in edit mode; `start` / `append` / `stop` of a native stream (`streaming` option). */
  readonly op: 'send' | 'update' | 'start' | 'append' | 'stop';
  readonly messageId: string;
  readonly payload: MemoryPayload;
  readonly at: number;
  /** The failure it answered with, or undefined when accepted. */
  readonly failure?: CallFailure['kind'];
  /** For a sent continuation part: the id of the main message it replies to. */
  readonly replyTo?: string;
  /** A stream call acknowledged but not shown (an expired stream with `expired: 'ignore'`). */
  readonly ignored?: true;
}

/** A message in the in-memory chat. */
export interface MemoryMessage {
  readonly id: string;
  readonly target: unknown;
  /** Accepted payloads, oldest first. */
  readonly history: MemoryPayload[];
  gone: boolean;
  /** For a continuation part: the id of the main message it replies to. */
  readonly replyTo?: string;
  /** For a card opened with `replyTo`: the triggering message it replies to (see `SendRequest.replyToMessage`). */
  readonly replyToMessage?: ReplyToMessage;
  /** Set on a native stream message (ids `s1`, `s2`…). */
  readonly stream?: MemoryStream;
}

/** A reply (completion ping) the in-memory channel received. */
export interface MemoryReply {
  /** The card message replied to. */
  readonly replyTo: string;
  readonly text: string;
  readonly mention?: Requester;
  readonly idempotencyKey: string;
  /** Epoch ms on the wall/fake clock. */
  readonly at: number;
}

/** A scripted answer: `op` calls (or every call) fail with `failure` while `when` holds. */
export interface MemoryFault {
  /**
   * The call it answers: `send` / `update` in edit mode, `start` / `append` / `stop` of a native
   * stream (`streaming` option). Absent: the next `send` or `update`.
   */
  readonly op?: 'send' | 'update' | 'start' | 'append' | 'stop';
  readonly failure: CallFailure;
  /** How many calls this fault answers (default 1). */
  times?: number;
}

class MemoryFailure extends Error {
  constructor(readonly failure: CallFailure) {
    super(`${failure.kind}: ${failure.detail}`);
  }
}

/** Options of {@link memoryChannel}. */
export interface MemoryChannelOptions {
  /** Channel id (default `memory`). */
  readonly id?: string;
  /** The app it plays (`ChannelPlugin.appIdentity`), to test app pools across deploys; default none. */
  readonly appIdentity?: string;
  /** Timing overrides, checked like every plugin's (see `parseTimingOverrides`). */
  readonly overrides?: Partial<ChannelSettings>;
  /** Time each call takes, in ms (default 0). */
  readonly latencyMs?: number;
  /**
   * Longest answer one message shows, in code points (default unlimited). A longer answer is
   * shown in chunks of this size: the first on the card, the others as continuation parts.
   */
  readonly answerChunkChars?: number;
  /** Feature switch config (`progressive`, `completionPing`, …), read like every plugin's with `resolveFeatureSwitches`. */
  readonly switches?: Readonly<Record<string, unknown>>;
  /** Read for `<ID>_CARD_*` switch variables (default: none, so tests never see the process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Gives the channel a native streaming mode with this lifetime (see `StreamingMode`); absent: edit mode only. */
  readonly streaming?: MemoryStreamOptions;
}

/** The in-memory reference channel: a {@link ChannelPlugin} that records every call and can be told to fail. */
export interface MemoryChannel extends ChannelPlugin<MemoryPayload, string> {
  readonly messages: Map<string, MemoryMessage>;
  readonly calls: MemoryCall[];
  /** Replies (completion pings) posted, oldest first. */
  readonly replies: MemoryReply[];
  /** Answers the next matching calls with a failure. */
  failNext(fault: MemoryFault): void;
  /** Marks a message recalled: later updates answer `gone`. */
  recall(messageId: string): void;
  /** Requests in flight right now, and the most ever seen at once. */
  readonly inFlight: { now: number; max: number };
  /**
   * The user presses the platform's own Stop on stream message `messageId`: later calls on it fail
   * with `stopped-by-user`. @throws Error when the channel has no such stream.
   */
  stopStream(messageId: string): void;
}

/** Default timing of the in-memory channel (tick 3000 ms, 5 calls/s, 250 ms per card, 2500 ms debounce). */
export const MEMORY_CHANNEL_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 5, intervalMs: 1000 }],
  perCardIntervalMs: 250,
  debounceMs: 2500,
};

/** `text` in pieces of at most `size` code points (one piece when `size` is undefined). */
function chunks(text: string, size: number | undefined): string[] {
  if (size === undefined) return [text];
  const points = Array.from(text);
  if (points.length <= size) return [text];
  const out: string[] = [];
  for (let start = 0; start < points.length; start += size) out.push(points.slice(start, start + size).join(''));
  return out;
}

function render(view: CardView, format: 'rich' | 'text', chunkChars: number | undefined, footerStyle: FooterStyle): MemoryPayload {
  return {
    format,
    status: view.status,
    title: view.title,
    round: view.round,
    tools: view.tools.map((tool) => tool.text),
    thinking: view.thinking,
    answer: chunks(view.answer, chunkChars)[0]!,
    // The footer (duration, tokens, sent-at) shows once the run ended, so renders of a running card stay comparable.
    footer: isTerminalStatus(view.status) ? formatFooter(view.footer, { style: footerStyle, locale: view.locale, timeZone: 'UTC' }) : '',
    ...(view.notice ? { notice: noticeText(view.notice, view.locale, 'UTC') } : {}),
    ...(view.plan ? { plan: [planHeading(view.plan, view.locale), ...planLines(view.plan, view.locale)] } : {}),
    ...(isTerminalStatus(view.status) && view.changedFiles.length > 0 ? { changedFiles: changedFilesSection(view) } : {}),
    ...(view.error !== undefined ? { error: view.error } : {}),
    ...(view.noProgressSince !== undefined ? { note: noProgressNote(view.noProgressSince, view.locale, 'UTC') } : {}),
    ...(view.images.length > 0 ? { images: view.images.map((image) => imagePlaceholderText(image, view.locale)) } : {}),
  };
}

/** What a stream message shows, as a payload: its text as the answer, task steps as tool lines. */
function streamPayload(stream: MemoryStream): MemoryPayload {
  return {
    format: 'rich',
    status: stream.status,
    title: '',
    round: 0,
    tools: [...stream.tasks.values()].map((task) => `${task.title} (${task.status})`),
    thinking: '',
    answer: stream.text,
    footer: stream.footer ?? '',
    ...(stream.plan.length > 0 ? { plan: stream.plan } : {}),
  };
}

function changedFilesSection(view: CardView): string[] {
  const { heading, items } = changedFilesLines(view.changedFiles, view.locale);
  return [heading, ...items];
}

/** Parts 2..n of an answer longer than `chunkChars`: the answer's later chunks and the card's status. */
function renderContinuations(view: CardView, chunkChars: number | undefined): MemoryPayload[] {
  return chunks(view.answer, chunkChars).slice(1).map((answer, index) => ({
    format: 'rich',
    status: view.status,
    title: '',
    round: view.round,
    tools: [],
    thinking: '',
    answer,
    footer: '',
    part: index + 2,
  }));
}

/**
 * Creates an in-memory channel for tests, examples and as a model for new plugins.
 * @throws ChannelConfigError naming the channel, field and value of a bad timing override
 *   (e.g. `memory tickMs = 0 (…)`), as `feishu(…)` and `dingtalk(…)` do.
 */
export function memoryChannel(options: MemoryChannelOptions = {}): MemoryChannel {
  const id = options.id ?? 'memory';
  const overrides = parseTimingOverrides(id, options.overrides);
  const messages = new Map<string, MemoryMessage>();
  const calls: MemoryCall[] = [];
  const faults: MemoryFault[] = [];
  const inFlight = { now: 0, max: 0 };
  const byKey = new Map<string, string>();
  const replies: MemoryReply[] = [];
  const switches = resolveFeatureSwitches(id, options.switches ?? {}, { env: options.env ?? {} });

  if (options.answerChunkChars !== undefined && !(Number.isSafeInteger(options.answerChunkChars) && options.answerChunkChars > 0)) {
    throw new Error(`memoryChannel answerChunkChars must be a positive integer, got ${JSON.stringify(options.answerChunkChars)}`);
  }
  const chunkChars = options.answerChunkChars;
  const streams = options.streaming
    ? new MemoryStreams(options.streaming, switches.footerStyle, (streamCall) => recordStreamCall(streamCall), takeFault)
    : undefined;

  /** The failure a pending {@link MemoryFault} answers call `op` with (and counts it), if any. */
  function takeFault(op: MemoryCall['op']): CallFailure | undefined {
    const index = faults.findIndex((fault) => fault.op === op || (!fault.op && (op === 'send' || op === 'update')));
    if (index < 0) return undefined;
    const fault = faults[index]!;
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault.failure;
  }

  function recordStreamCall({ op, id, stream, failure, ignored, create }: MemoryStreamCall): void {
    if (create) messages.set(id, { id, target: create.target, history: [], gone: false, stream });
    calls.push({ op, messageId: id, payload: streamPayload(stream), at: Date.now(), ...(failure ? { failure: failure.kind } : {}), ...(ignored ? { ignored } : {}) });
    if (!failure && !ignored) messages.get(id)?.history.push(streamPayload(stream));
  }

  async function call<T>(op: 'send' | 'update', messageId: string, payload: MemoryPayload, apply: () => T, replyTo?: string): Promise<T> {
    inFlight.now += 1;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    try {
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      const message = messages.get(messageId);
      let failure = takeFault(op);
      if (!failure && op === 'update' && message?.gone) failure = { kind: 'gone', detail: 'message recalled' };
      calls.push({ op, messageId, payload, at: Date.now(), failure: failure?.kind, ...(replyTo === undefined ? {} : { replyTo }) });
      if (failure) throw new MemoryFailure(failure);
      return apply();
    } finally {
      inFlight.now -= 1;
    }
  }

  return {
    id,
    ...(options.appIdentity !== undefined && { appIdentity: options.appIdentity }),
    configSchema: z.object({}),
    defaults: MEMORY_CHANNEL_DEFAULTS,
    overrides,
    switches,
    messages,
    calls,
    replies,
    inFlight,
    failNext: (fault) => faults.push({ ...fault }),
    stopStream(messageId) {
      if (!streams) throw new Error(`memory channel ${id} has no streams (give it the streaming option)`);
      streams.stop(messageId);
    },
    ...(streams ? { streaming: streams.mode } : {}),
    recall(messageId) {
      const message = messages.get(messageId);
      if (message) message.gone = true;
    },
    renderer: {
      render: (view) => render(view, 'rich', chunkChars, switches.footerStyle),
      renderFallback: (view) => render(view, 'text', chunkChars, switches.footerStyle),
      renderContinuations: (view) => renderContinuations(view, chunkChars),
    },
    transport: {
      async send({ target, payload, idempotencyKey, replyTo, replyToMessage }): Promise<MessageRef> {
        const existing = byKey.get(idempotencyKey);
        const id = existing ?? `m${messages.size + 1}`;
        return call('send', id, payload, () => {
          if (!existing) {
            byKey.set(idempotencyKey, id);
            messages.set(id, { id, target, history: [], gone: false, ...(replyTo ? { replyTo: replyTo.id } : {}), ...(replyToMessage ? { replyToMessage } : {}) });
          }
          messages.get(id)!.history.push(payload);
          return { id };
        }, replyTo?.id);
      },
      async update({ message, payload }) {
        await call('update', message.id, payload, () => {
          messages.get(message.id)!.history.push(payload);
        });
      },
      async reply({ message, text, mention, idempotencyKey }): Promise<MessageRef> {
        const index = faults.findIndex((fault) => !fault.op);
        if (index >= 0) {
          const fault = faults[index]!;
          fault.times = (fault.times ?? 1) - 1;
          if (fault.times <= 0) faults.splice(index, 1);
          throw new MemoryFailure(fault.failure);
        }
        if (!replies.some((reply) => reply.idempotencyKey === idempotencyKey)) {
          replies.push({ replyTo: message.id, text, idempotencyKey, at: Date.now(), ...(mention ? { mention } : {}) });
        }
        return { id: `r${replies.length}` };
      },
      classify: (error) =>
        error instanceof MemoryFailure || error instanceof MemoryStreamFailure ? error.failure : { kind: 'transient', detail: String(error) },
    },
  };
}
