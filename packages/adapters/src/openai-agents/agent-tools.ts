import type { ProgressCard } from '@progresscard/core';
import { resultSummary } from '../shared/mirror.js';

type Loose = Readonly<Record<string, unknown>>;

const obj = (value: unknown): Loose => (typeof value === 'object' && value !== null ? (value as Loose) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** What the handler reads of an `agent.asTool({ onStream })` event (`AgentToolStreamEvent` of `@openai/agents-core`). */
export interface OpenAIAgentToolStreamEvent {
  /** The nested run's stream event (`RunStreamEvent`). */
  readonly event: unknown;
  /** The outer run's function call that started the nested agent; its `callId` is the parent of the nested calls. */
  readonly toolCall?: { readonly callId?: string } | unknown;
}

/**
 * An `onStream` handler for `agent.asTool({ onStream })` (`@openai/agents-core` 0.14 `AgentToolOptions.onStream`,
 * "Optional hook to receive streamed events from the nested agent run"): each tool call of the
 * nested agent becomes a tool line of `card` under the outer call that started it
 * (`tool.started` with `parentCallId` = `toolCall.callId`; `tool.finished` with the output's first
 * line), so the agent-as-tool shows as a subagent with its own tools folded under it. The nested
 * run's text and model calls stay off the card: the outer call's output is its result. Events
 * without a `toolCall` (the SDK gives none) are left out rather than shown as the main agent's.
 * Never throws (a bad event is skipped; `card.push` reports its own problems).
 */
export function mirrorAgentToolStream(card: ProgressCard): (event: OpenAIAgentToolStreamEvent) => void {
  const open = new Set<string>();
  return ({ event, toolCall }) => {
    const parentCallId = str(obj(toolCall).callId);
    const streamed = obj(event);
    if (!parentCallId || streamed.type !== 'run_item_stream_event') return;
    const item = obj(streamed.item);
    const raw = obj(item.rawItem);
    const callId = str(raw.callId) ?? str(raw.id);
    if (!callId) return;
    if (streamed.name === 'tool_called' && !open.has(callId)) {
      open.add(callId);
      const args = str(raw.arguments);
      card.push({ type: 'tool.started', callId, name: str(raw.name) ?? str(raw.type) ?? 'tool', parentCallId, ...(args ? { args } : {}) });
    } else if (streamed.name === 'tool_output' && open.delete(callId)) {
      const output = item.output ?? raw.output;
      const summary = resultSummary(typeof output === 'object' && output !== null && 'text' in output ? (output as Loose).text : output);
      card.push({ type: 'tool.finished', callId, ...(summary ? { summary } : {}) });
    }
  };
}
