import type { AgentEvent } from '@progresscard/core';
import { oneLine } from '@progresscard/core/plugin';
import type { MirrorOptions, StreamMapper } from '../shared/mirror.js';
import { recordStreamMapper, type RecordErrorHandler } from '../shared/record-stream.js';

type Loose = Readonly<Record<string, unknown>>;

const obj = (value: unknown): Loose => (typeof value === 'object' && value !== null ? (value as Loose) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Call id of the tool line that shows a model-call retry while it waits. */
const RETRY_CALL = 'claude-api-retry';

/** The line a `system/api_retry` message shows: attempt, the error and the wait, e.g. `attempt 2 of 10 · HTTP 529 · in 4 s`. */
function retryArgs(message: Loose): Record<string, unknown> {
  const attempt = num(message.attempt);
  const max = num(message.max_retries);
  const status = num(message.error_status);
  const delay = num(message.retry_delay_ms);
  const error = str(message.error) ?? str(obj(message.error).message) ?? str(obj(message.error).type);
  const parts = [
    attempt !== undefined ? `attempt ${attempt}${max !== undefined ? ` of ${max}` : ''}` : undefined,
    status !== undefined && status !== null ? `HTTP ${status}` : error,
    delay !== undefined ? `in ${Math.max(1, Math.round(delay / 1000))} s` : undefined,
  ].filter(Boolean);
  return { description: parts.join(' · ') || 'retrying' };
}

/**
 * Claude Agent SDK messages to agent events: the stream-json converter of `@progresscard/sources`
 * (see `mirrorClaudeAgent`) plus what only a live run shows (message types of `SDKMessage` in
 * `@anthropic-ai/claude-agent-sdk` 0.3.332 `sdk.d.ts`):
 * - `system/init` starts the run at once, with its model (the card appears before any thinking).
 * - `system/api_retry`: a model call failed and is retried; a `retry` tool line runs while the SDK
 *   waits (attempt, HTTP status, delay) and finishes, as failed, when the model answers or the
 *   next retry comes (the run goes on; the line stays as a record of the failed call).
 * - `system/task_started` for a background task whose tool call already returned (a backgrounded
 *   Bash, a background subagent) → a `task` tool line with the task's description, finished by its
 *   `system/task_notification` (`failed` / `stopped` mark it failed) with the notification's
 *   summary. A task whose tool call is still running is already shown by that call's line.
 * - Any task still running when the run ends is closed with the run (the card closes open lines).
 */
export function claudeAgentMapper(options: MirrorOptions = {}, onRecordError?: RecordErrorHandler): StreamMapper<unknown> {
  const inner = recordStreamMapper('claude-stream-json', options, {
    ...(onRecordError ? { onError: onRecordError } : {}),
    startsRun: (record) => {
      const message = obj(record);
      return message.type === 'system' && message.subtype === 'init' ? { ...(str(message.model) ? { model: str(message.model) } : {}) } : undefined;
    },
  });
  /** Tool calls the card shows running (by call id), to tell a running call's task from a background one. */
  const open = new Set<string>();
  const tasks = new Set<string>();
  let retrying = false;

  const track = (events: readonly AgentEvent[]): readonly AgentEvent[] => {
    for (const event of events) {
      if (event.type === 'tool.started') open.add(event.callId);
      else if (event.type === 'tool.finished') open.delete(event.callId);
    }
    return events;
  };
  const endRetry = (summary: string): AgentEvent[] => {
    if (!retrying) return [];
    retrying = false;
    return [{ type: 'tool.finished', callId: RETRY_CALL, summary, isError: true }];
  };

  function system(message: Loose): AgentEvent[] {
    switch (message.subtype) {
      case 'api_retry': {
        // Each retry gets its own line: the previous one finishes first.
        const events = endRetry('retried');
        retrying = true;
        events.push({ type: 'tool.started', callId: RETRY_CALL, name: 'retry', args: retryArgs(message) });
        return events;
      }
      case 'task_started': {
        const taskId = str(message.task_id);
        const toolUseId = str(message.tool_use_id);
        if (!taskId || (toolUseId && open.has(toolUseId)) || tasks.has(taskId)) return [];
        tasks.add(taskId);
        const description = str(message.description) ?? str(message.subagent_type) ?? taskId;
        return [{ type: 'tool.started', callId: `task:${taskId}`, name: 'task', args: { description: oneLine(description, 300) } }];
      }
      case 'task_notification': {
        const taskId = str(message.task_id);
        if (!taskId || !tasks.delete(taskId)) return [];
        const status = str(message.status);
        const summary = str(message.summary) ?? status;
        const failed = status === 'failed' || status === 'stopped';
        return [{ type: 'tool.finished', callId: `task:${taskId}`, ...(summary ? { summary: oneLine(summary, 200) } : {}), ...(failed ? { isError: true } : {}) }];
      }
      default:
        return [];
    }
  }

  return {
    map(record) {
      const message = obj(record);
      const head = message.type === 'assistant' || message.type === 'stream_event' || message.type === 'result' ? endRetry('retried') : [];
      const mapped = track(inner.map(record));
      const live = message.type === 'system' ? system(message) : [];
      return [...head, ...mapped, ...live];
    },
    end: () => [...endRetry('retried'), ...track(inner.end())],
  };
}
