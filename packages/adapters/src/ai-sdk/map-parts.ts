import type { AgentEvent } from '@progresscard/core';
import { errorText, resultSummary, type MirrorOptions, type StreamMapper } from '../shared/mirror.js';

/** What the adapter reads of an AI SDK stream part (`streamText(...).fullStream`), v6 and v7 alike. */
export interface AiSdkStreamPart {
  readonly type: string;
}

type Loose = Readonly<Record<string, unknown>>;

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** Usage of a step or run (`inputTokens`/`outputTokens`; v4's `promptTokens`/`completionTokens` too). */
function usageOf(usage: unknown): { inputTokens?: number; outputTokens?: number } | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as Loose;
  const inputTokens = num(u.inputTokens ?? u.promptTokens);
  const outputTokens = num(u.outputTokens ?? u.completionTokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}) };
}

/**
 * Maps AI SDK `fullStream` parts to agent events:
 * - `start` → `run.started` (title, model and locale from the options); any first part starts the run too.
 * - `start-step` / `finish-step` → `round.started` / `round.ended` (one round per step); a step's
 *   usage → `usage` (input and output add up; the step's input plus output is the context size)
 *   with the response's model id.
 * - `text-delta` → `answer.delta`; `reasoning-delta` → `thinking.delta`.
 * - `tool-input-start` / `tool-input-delta` → `tool.started` / `tool.args_delta` (streamed
 *   arguments); `tool-call` starts the call when its input was not streamed; `tool-result`
 *   (not `preliminary`) → `tool.finished` with the output's first line; `tool-error` and
 *   `tool-output-denied` → `tool.finished` as an error.
 * - `tool-approval-request` → `interaction.requested` (the card shows "waiting" and stays so at
 *   `finish`: the run goes on when the product sends the approval).
 * - `finish` → `run.completed`, or `run.failed` for finish reason `error`; its total usage is
 *   sent only when no step reported usage. `error` → `run.failed`; `abort` → `run.cancelled`.
 * - Other parts (sources, files, raw chunks, text/reasoning start and end, v7's ping, custom and
 *   steering parts) change nothing on the card.
 */
export function aiSdkMapper(options: MirrorOptions = {}): StreamMapper<AiSdkStreamPart> {
  let started = false;
  let round = 0;
  let roundOpen = false;
  let stepUsageSeen = false;
  let approvalPending = false;
  const tools = new Set<string>();

  const start = (): AgentEvent[] => {
    if (started) return [];
    started = true;
    return [{ type: 'run.started', ...(options.title ? { title: options.title } : {}), ...(options.model ? { model: options.model } : {}), ...(options.locale ? { locale: options.locale } : {}) }];
  };
  const openRound = (): AgentEvent[] => {
    if (roundOpen) return [];
    roundOpen = true;
    round += 1;
    return [{ type: 'round.started', round }];
  };
  const closeRound = (): AgentEvent[] => {
    if (!roundOpen) return [];
    roundOpen = false;
    return [{ type: 'round.ended', round }];
  };
  const toolStart = (callId: string, name: string, args?: unknown): AgentEvent[] => {
    if (tools.has(callId)) return [];
    tools.add(callId);
    const argsField = typeof args === 'string' ? { args } : typeof args === 'object' && args !== null && !Array.isArray(args) ? { args: args as Record<string, unknown> } : {};
    return [...openRound(), { type: 'tool.started', callId, name, ...argsField }];
  };

  function mapPart(p: Loose): AgentEvent[] {
    switch (p.type) {
      case 'start':
        return [];
      case 'start-step':
        return [...closeRound(), ...openRound()];
      case 'finish-step': {
        const usage = usageOf(p.usage);
        const model = str((p.response as Loose | undefined)?.modelId);
        const events: AgentEvent[] = [];
        if (usage) {
          stepUsageSeen = true;
          const context = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
          events.push({ type: 'usage', ...usage, ...(context > 0 ? { contextTokens: context } : {}), ...(model ? { model } : {}) });
        }
        return [...events, ...closeRound()];
      }
      case 'text-delta': {
        const text = str(p.text ?? p.textDelta ?? p.delta);
        return text ? [...openRound(), { type: 'answer.delta', text }] : [];
      }
      case 'reasoning-delta':
      case 'reasoning': {
        const text = str(p.text ?? p.textDelta ?? p.delta);
        return text ? [...openRound(), { type: 'thinking.delta', text }] : [];
      }
      case 'tool-input-start':
      case 'tool-call-streaming-start': {
        const callId = str(p.id ?? p.toolCallId);
        const name = str(p.toolName);
        return callId && name ? toolStart(callId, name) : [];
      }
      case 'tool-input-delta':
      case 'tool-call-delta': {
        const callId = str(p.id ?? p.toolCallId);
        const delta = str(p.delta ?? p.argsTextDelta);
        return callId && delta && tools.has(callId) ? [{ type: 'tool.args_delta', callId, delta }] : [];
      }
      case 'tool-call': {
        const callId = str(p.toolCallId);
        const name = str(p.toolName);
        return callId && name ? toolStart(callId, name, p.input ?? p.args) : [];
      }
      case 'tool-result': {
        const callId = str(p.toolCallId);
        if (!callId || p.preliminary === true) return [];
        const summary = resultSummary(p.output ?? p.result);
        return [{ type: 'tool.finished', callId, ...(summary ? { summary } : {}) }];
      }
      case 'tool-error': {
        const callId = str(p.toolCallId);
        return callId ? [{ type: 'tool.finished', callId, summary: errorText(p.error), isError: true }] : [];
      }
      case 'tool-output-denied': {
        const callId = str(p.toolCallId);
        return callId ? [{ type: 'tool.finished', callId, summary: 'denied', isError: true }] : [];
      }
      case 'tool-approval-request': {
        const call = (p.toolCall ?? {}) as Loose;
        const name = str(call.toolName) ?? 'a tool';
        approvalPending = true;
        return [{ type: 'interaction.requested', prompt: `Approve ${name}?` }];
      }
      case 'finish': {
        const events: AgentEvent[] = [...closeRound()];
        const usage = stepUsageSeen ? undefined : usageOf(p.totalUsage ?? p.usage);
        if (usage) events.push({ type: 'usage', ...usage });
        // The run goes on once the product answers the approval: the card keeps waiting.
        if (approvalPending) return events;
        events.push(p.finishReason === 'error' ? { type: 'run.failed', error: 'the model stopped with an error' } : { type: 'run.completed' });
        return events;
      }
      case 'error':
        return [...closeRound(), { type: 'run.failed', error: errorText(p.error) }];
      case 'abort':
        return [...closeRound(), { type: 'run.cancelled', ...(str(p.reason) ? { reason: str(p.reason) } : {}) }];
      default:
        return [];
    }
  }

  return {
    map: (part) => [...start(), ...mapPart(part as unknown as Loose)],
    end: () => closeRound(),
  };
}
