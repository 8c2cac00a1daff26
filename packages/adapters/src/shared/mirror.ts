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
}

/** Maps one SDK's stream items to agent events; stateful across one stream. */
export interface StreamMapper<Item> {
  /** Events for one stream item, in order. */
  map(item: Item): readonly AgentEvent[];
  /** Events when the stream ended normally (e.g. a run the stream left open). */
  end(): readonly AgentEvent[];
}

/** True for the error an aborted fetch or stream throws. */
function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

/** The message of a thrown value or an error part, on one line. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
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
export async function mirrorStream<Item>(stream: AsyncIterable<Item>, card: ProgressCard, mapper: StreamMapper<Item>): Promise<LiveRunResult> {
  const push = (events: readonly AgentEvent[]) => {
    for (const event of events) if (!isTerminalStatus(card.status)) card.push(event);
  };
  try {
    for await (const item of stream) push(mapper.map(item));
    push(mapper.end());
  } catch (error) {
    if (!isTerminalStatus(card.status)) {
      if (isAbortError(error)) card.cancel(errorText(error));
      else card.fail(errorText(error));
    }
    throw error;
  }
  // A card waiting for the user (an approval the product will answer) stays waiting.
  if (card.status === 'running') card.complete();
  return resultOf(card);
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
  };
}
