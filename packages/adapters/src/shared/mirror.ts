import { isTerminalStatus, type AgentEvent, type CardStatus, type ProgressCard } from '@progresscard/core';
import { oneLine } from '@progresscard/core/plugin';
import { ToolEffects } from '@progresscard/sources';

/** Longest tool result summary an adapter puts on a tool line, in code points (the card cuts further). */
const MAX_RESULT_SUMMARY = 200;

/** How a mirrored stream ended, as the card shows it. */
export interface LiveRunResult {
  /** The card's status when the stream ended: `completed`, `failed`, `cancelled`, or `waiting` (an approval is pending). */
  readonly status: CardStatus;
  /** The error text the card shows, for a failed run. */
  readonly error?: string;
}

/** Options every adapter takes. */
export interface MirrorOptions {
  /** Card title (`run.started`), e.g. the user's prompt. */
  readonly title?: string;
  /** Model name for the footer when the stream does not say. */
  readonly model?: string;
  /** Card language. */
  readonly locale?: 'zh-CN' | 'en';
  /**
   * The signal the product aborts the run with (the one it gave the SDK): a stream that throws or
   * ends after it aborted ends the card as cancelled, whatever the SDK's error looks like.
   */
  readonly signal?: AbortSignal;
}

/** Maps one SDK's stream items to agent events; stateful across one stream. */
export interface StreamMapper<Item> {
  /** Events for one stream item, in order. */
  map(item: Item): readonly AgentEvent[];
  /** Events when the stream ended normally (e.g. a run the stream left open). */
  end(): readonly AgentEvent[];
  /**
   * The card's error text for what iterating the stream threw, when the stream itself said better
   * why (default: the thrown error's message).
   */
  failure?(error: unknown): string;
}

/** Error names of aborts: DOM / Node (`AbortError`), the OpenAI and Anthropic clients (`APIUserAbortError`). */
const ABORT_NAMES = new Set(['AbortError', 'APIUserAbortError']);

/**
 * True for the error an aborted run throws, or when `signal` was aborted. Besides the usual names and
 * Node's `ABORT_ERR` code, this knows the Claude Agent SDK's own `AbortError`: its bundle mangles the
 * class name (its `name` is plain "Error"), but it carries `errorClass: "aborted"` (read in
 * `@anthropic-ai/claude-agent-sdk` 0.3.332's `sdk.mjs`). The `cause` chain is followed a few steps.
 */
function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const e = current as { name?: unknown; code?: unknown; errorClass?: unknown; cause?: unknown };
    if ((typeof e.name === 'string' && ABORT_NAMES.has(e.name)) || e.code === 'ABORT_ERR' || e.errorClass === 'aborted') return true;
    current = e.cause;
  }
  return false;
}

/** Text of a plain error object (`{ message }`, `{ error: { message } }`), if it has one. */
function objectMessage(error: object): string | undefined {
  const e = error as { message?: unknown; error?: unknown };
  if (typeof e.message === 'string' && e.message) return e.message;
  if (typeof e.error === 'object' && e.error !== null) return objectMessage(e.error);
  if (typeof e.error === 'string' && e.error) return e.error;
  return undefined;
}

/** The message of a thrown value or an error part, on one line. */
export function errorText(error: unknown): string {
  const text =
    error instanceof Error
      ? error.message
      : typeof error === 'string'
        ? error
        : typeof error === 'object' && error !== null
          ? (objectMessage(error) ?? JSON.stringify(error))
          : String(error);
  return oneLine(text || 'unknown error', 500);
}

/** A tool output as a one-line summary (strings as they are, anything else as JSON). */
export function resultSummary(output: unknown): string | undefined {
  if (output === undefined || output === null) return undefined;
  let text: string;
  try {
    text = typeof output === 'string' ? output : JSON.stringify(output);
  } catch {
    text = String(output);
  }
  const first = text.split('\n').find((line) => line.trim()) ?? '';
  return first ? oneLine(first, MAX_RESULT_SUMMARY) : undefined;
}

/**
 * Feeds a stream to a card until it ends: every item through `mapper`, then the mapper's end
 * events; a run the stream left running is completed, one left waiting for the user stays waiting. A stream that throws ends the card as
 * cancelled (an abort) or failed (anything else), then the error is rethrown so the product's own
 * error handling is unchanged. Pushing never throws (bad events are logged by the card).
 *
 * @returns The card's final status (and error) once the stream ended.
 * @throws Whatever iterating `stream` throws, after the card shows it.
 */
export async function mirrorStream<Item>(stream: AsyncIterable<Item>, card: ProgressCard, mapper: StreamMapper<Item>, signal?: AbortSignal): Promise<LiveRunResult> {
  const push = (events: readonly AgentEvent[]) => {
    for (const event of events) if (!isTerminalStatus(card.status)) card.push(event);
  };
  // The abort is the user's word: the card is cancelled at once, whatever the stream does after it
  // (Claude Code still sends a result, some SDKs just end their stream quietly).
  const onAbort = () => {
    if (signal && !isTerminalStatus(card.status)) card.cancel(abortReason(signal));
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const item of stream) push(mapper.map(item));
    push(mapper.end());
  } catch (error) {
    if (!isTerminalStatus(card.status)) {
      if (isAbortError(error, signal)) card.cancel(signal?.aborted ? abortReason(signal) : errorText(error));
      else card.fail(mapper.failure?.(error) ?? errorText(error));
    }
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  // A card waiting for the user (an approval the product will answer) stays waiting.
  if (card.status === 'running') card.complete();
  return resultOf(card);
}

/** The reason an aborted signal gives (its `reason` when that is text or an error), else "aborted". */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string' && reason) return oneLine(reason, 200);
  if (reason instanceof Error && reason.name !== 'AbortError' && reason.message) return oneLine(reason.message, 200);
  return 'aborted';
}

/** The {@link LiveRunResult} a card shows now. */
function resultOf(card: ProgressCard): LiveRunResult {
  const view = card.view();
  return view.status === 'failed' && view.error ? { status: view.status, error: view.error } : { status: view.status };
}

/**
 * `mapper` with the meaning of plan and file-writing tool calls added (see `ToolEffects`): for SDKs
 * whose tool calls come as generic calls (AI SDK, OpenAI Agents), a `TodoWrite` / `update_plan` tool
 * becomes the card's plan and a successful write tool call adds its `file.changed` events.
 */
export function withToolEffects<Item>(mapper: StreamMapper<Item>): StreamMapper<Item> {
  const effects = new ToolEffects();
  return {
    map: (item) => mapper.map(item).flatMap((event) => effects.apply(event)),
    end: () => mapper.end().flatMap((event) => effects.apply(event)),
    ...(mapper.failure ? { failure: mapper.failure.bind(mapper) } : {}),
  };
}
