import type { AgentEvent } from '@progresscard/core';
import { errorText, resultSummary, type MirrorOptions, type StreamMapper } from '../shared/mirror.js';

/** What the adapter reads of an OpenAI Agents SDK stream event (`RunStreamEvent`). */
export interface OpenAIAgentsStreamEvent {
  readonly type: string;
}

/** What the adapter reads of the streamed run result once its events ended. */
export interface OpenAIAgentsRunOutcome {
  /** Tool approvals the run stopped for (`result.interruptions`). */
  readonly interruptions?: readonly unknown[];
  /** The error the run ended with, if any (`result.error`). */
  readonly error?: unknown;
  /** True when the run was aborted (`result.cancelled`): the stream then just ends. */
  readonly cancelled?: boolean;
  /** The run's final output (`result.finalOutput`): a string one is the card's answer. */
  readonly finalOutput?: unknown;
  /**
   * The run's state (`result.state`): its context tells a tool call the user rejected
   * (`RunContext.isToolApproved` answers `false`), whatever message the rejection gave the model.
   */
  readonly state?: unknown;
}

/**
 * The output the SDK gives the model for a tool call whose approval was rejected, unless
 * `state.reject(item, { message })` or a `toolErrorFormatter` gave another
 * (`TOOL_APPROVAL_REJECTION_MESSAGE` of `@openai/agents-core` 0.14, runner/approvalRejection).
 */
const OPENAI_AGENTS_REJECTION_MESSAGE = 'Tool execution was not approved.';

type Loose = Readonly<Record<string, unknown>>;

const obj = (value: unknown): Loose => (typeof value === 'object' && value !== null ? (value as Loose) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined);

/** Reasoning summary deltas of the Responses API, as the SDK passes them in `model` events. */
const REASONING_DELTAS = new Set(['response.reasoning_summary_text.delta', 'response.reasoning_text.delta']);

/** The generic error the SDK throws when a model call ended without output; the stream's own error says why. */
const NO_FINAL_RESPONSE = /did not produce a final response/i;

/** The error a raw Responses event reports (`response.failed`, `response.incomplete`, `error`), if any. */
function rawError(inner: Loose): string | undefined {
  switch (inner.type) {
    case 'error':
      return str(inner.message) ?? str(obj(inner.error).message);
    case 'response.failed':
      return str(obj(obj(inner.response).error).message) ?? 'the model response failed';
    case 'response.incomplete': {
      const reason = str(obj(obj(inner.response).incomplete_details).reason);
      return `the model response is incomplete${reason ? ` (${reason})` : ''}`;
    }
    default:
      return undefined;
  }
}

/**
 * True when the run's state says the user rejected tool call `callId` of `toolName`
 * (`state._context.isToolApproved({ toolName, callId }) === false`, `@openai/agents-core` 0.14).
 * False when the state is missing or shaped otherwise; never throws.
 */
function rejectedInState(state: unknown, toolName: string | undefined, callId: string): boolean {
  if (!toolName) return false;
  const context = obj(obj(state)._context) as { isToolApproved?: unknown };
  if (typeof context.isToolApproved !== 'function') return false;
  try {
    return (context.isToolApproved as (approval: { toolName: string; callId: string }) => unknown).call(context, { toolName, callId }) === false;
  } catch {
    return false;
  }
}

/** The text of a reasoning item's content / summary parts. */
function reasoningText(raw: Loose): string {
  const parts = [...(Array.isArray(raw.content) ? raw.content : []), ...(Array.isArray(raw.summary) ? raw.summary : [])];
  return parts.map((part) => str(obj(part).text) ?? '').filter(Boolean).join('\n\n');
}

/**
 * Maps OpenAI Agents SDK stream events to agent events:
 * - The first event starts the run (`run.started`: title and locale from the options; the model
 *   from the options, else the first agent's `model` when it is a name).
 * - Raw model events: `response_started` → a new round (one round per model call) and, when its
 *   provider data carries the Responses API `response` (the OpenAI provider), its `model` → the
 *   footer's model; `output_text_delta` → `answer.delta`; reasoning summary deltas →
 *   `thinking.delta`; `response_done` → `usage` (input and output add up; input plus output is the
 *   context size) and the round's end. Tool calls after `response_done` belong to that round.
 *   A raw `error`, `response.failed` or `response.incomplete` event is kept as the run's cause.
 * - Run items: `tool_called` → `tool.started` (call id, tool name, argument JSON);
 *   `tool_output` → `tool.finished` with the output's first line, or, for a call the user
 *   rejected (its output is {@link OPENAI_AGENTS_REJECTION_MESSAGE}, or the run's state says so),
 *   an error `denied` (with the rejection's own message, if it gave one): the tool did not run; `handoff_requested` /
 *   `handoff_occurred` → a tool line `handoff` finished with `→ <agent>`; `tool_approval_requested`
 *   → `interaction.requested`; `reasoning_item_created` → thinking when none was streamed.
 * - At the end (`outcome()`): `cancelled` (an abort: the stream just ends) cancels the card; the
 *   run's `error` fails it (the SDK's generic "did not produce a final response" is replaced by the
 *   last cause the stream reported); pending `interruptions` leave it waiting for the approval;
 *   otherwise the run completes, with a string `finalOutput` as the answer (it replaces the
 *   streamed text, which holds partial copies when a model call failed and was retried).
 */
export function openAIAgentsMapper(outcome: () => OpenAIAgentsRunOutcome, options: MirrorOptions = {}): StreamMapper<OpenAIAgentsStreamEvent> {
  let started = false;
  let round = 0;
  let roundOpen = false;
  let thinkingStreamed = false;
  let lastCause: string | undefined;
  const tools = new Set<string>();

  const closeRound = (): AgentEvent[] => {
    if (!roundOpen) return [];
    roundOpen = false;
    return [{ type: 'round.ended', round }];
  };
  const openRound = (): AgentEvent[] => {
    if (roundOpen) return [];
    // Output after `response_done` (the tool calls of that response) belongs to its round.
    if (round > 0) return [];
    roundOpen = true;
    round += 1;
    return [{ type: 'round.started', round }];
  };
  const start = (event: Loose): AgentEvent[] => {
    if (started) return [];
    started = true;
    const model = options.model ?? (event.type === 'agent_updated_stream_event' ? str(obj(event.agent).model) : undefined);
    return [{ type: 'run.started', ...(options.title ? { title: options.title } : {}), ...(model ? { model } : {}), ...(options.locale ? { locale: options.locale } : {}) }];
  };

  function raw(data: Loose): AgentEvent[] {
    switch (data.type) {
      case 'response_started': {
        const model = str(obj(obj(data.providerData).response).model);
        const events = closeRound();
        roundOpen = true;
        round += 1;
        events.push({ type: 'round.started', round });
        if (model && !options.model) events.push({ type: 'usage', model });
        return events;
      }
      case 'output_text_delta': {
        const text = str(data.delta);
        return text ? [...openRound(), { type: 'answer.delta', text }] : [];
      }
      case 'model': {
        const inner = obj(data.event);
        const cause = rawError(inner);
        if (cause) lastCause = cause;
        const text = REASONING_DELTAS.has(String(inner.type)) ? str(inner.delta) : undefined;
        if (!text) return [];
        thinkingStreamed = true;
        return [...openRound(), { type: 'thinking.delta', text }];
      }
      case 'response_done': {
        const usage = obj(obj(data.response).usage);
        const inputTokens = num(usage.inputTokens);
        const outputTokens = num(usage.outputTokens);
        const events: AgentEvent[] = [];
        if (inputTokens !== undefined || outputTokens !== undefined) {
          const context = (inputTokens ?? 0) + (outputTokens ?? 0);
          events.push({
            type: 'usage',
            ...(inputTokens !== undefined ? { inputTokens } : {}),
            ...(outputTokens !== undefined ? { outputTokens } : {}),
            ...(context > 0 ? { contextTokens: context } : {}),
          });
        }
        return [...events, ...closeRound()];
      }
      default:
        return [];
    }
  }

  function runItem(name: unknown, item: Loose): AgentEvent[] {
    const rawItem = obj(item.rawItem);
    const callId = str(rawItem.callId) ?? str(rawItem.id);
    switch (name) {
      case 'tool_called': {
        if (!callId || tools.has(callId)) return [];
        tools.add(callId);
        const args = str(rawItem.arguments);
        return [...openRound(), { type: 'tool.started', callId, name: str(rawItem.name) ?? str(rawItem.type) ?? 'tool', ...(args ? { args } : {}) }];
      }
      case 'tool_output': {
        if (!callId) return [];
        const output = item.output ?? rawItem.output;
        const summary = resultSummary(typeof output === 'object' && output !== null && 'text' in output ? (output as Loose).text : output);
        // A rejected call never ran: its output is only the rejection message the model is told.
        if (summary === OPENAI_AGENTS_REJECTION_MESSAGE || rejectedInState(outcome().state, str(rawItem.name), callId)) {
          const reason = summary && summary !== OPENAI_AGENTS_REJECTION_MESSAGE ? `: ${summary}` : '';
          return [{ type: 'tool.finished', callId, summary: `denied${reason}`, isError: true }];
        }
        return [{ type: 'tool.finished', callId, ...(summary ? { summary } : {}) }];
      }
      case 'handoff_requested': {
        if (!callId || tools.has(callId)) return [];
        tools.add(callId);
        return [...openRound(), { type: 'tool.started', callId, name: 'handoff', ...(str(rawItem.name) ? { args: { to: str(rawItem.name) } } : {}) }];
      }
      case 'handoff_occurred': {
        if (!callId) return [];
        const target = str(obj(item.targetAgent).name);
        return [{ type: 'tool.finished', callId, ...(target ? { summary: `→ ${target}` } : {}) }];
      }
      case 'tool_approval_requested': {
        const tool = str(item.toolName) ?? str(rawItem.name) ?? 'a tool';
        return [{ type: 'interaction.requested', prompt: `Approve ${tool}?` }];
      }
      case 'reasoning_item_created': {
        const text = thinkingStreamed ? '' : reasoningText(rawItem);
        return text ? [{ type: 'thinking.delta', text }] : [];
      }
      default:
        return [];
    }
  }

  /** The error text of a failed run: the stream's own cause instead of the SDK's generic message. */
  const failure = (error: unknown): string => {
    const text = errorText(error);
    return lastCause && NO_FINAL_RESPONSE.test(text) ? lastCause : text;
  };

  return {
    failure,
    map(event) {
      const e = event as unknown as Loose;
      const head = start(e);
      if (e.type === 'raw_model_stream_event') return [...head, ...raw(obj(e.data))];
      if (e.type === 'run_item_stream_event') return [...head, ...runItem(e.name, obj(e.item))];
      return head;
    },
    end() {
      const result = outcome();
      const events = closeRound();
      if (result.cancelled === true) return [...events, { type: 'run.cancelled', reason: 'aborted' }];
      if (result.error !== undefined && result.error !== null) return [...events, { type: 'run.failed', error: failure(result.error) }];
      if ((result.interruptions?.length ?? 0) > 0) return events;
      const answer = str(result.finalOutput);
      return [...events, { type: 'run.completed', ...(answer ? { answer } : {}) }];
    },
  };
}
