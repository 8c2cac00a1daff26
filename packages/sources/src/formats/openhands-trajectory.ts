import type { RunBuilder } from '../run-builder.js';
import { argsText, isObject, num, str, summarize, titleFrom, type Json } from '../text.js';
import type { Converter } from './converter.js';

/** Agent states that end a turn: the agent waits for the user, finished, or stopped. */
const COMPLETED_STATES = new Set(['awaiting_user_input', 'finished']);
const CANCELLED_STATES = new Set(['stopped', 'paused']);

/** OpenHands timestamps carry no zone (`2025-01-20T20:29:13.519638`): they are UTC. */
function utc(value: unknown): number | undefined {
  const text = str(value);
  if (!text) return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * OpenHands trajectories (a saved session: one JSON array of events, e.g. OpenHands'
 * `tests/runtime/trajs/*.json`, recorded January 2025 with claude-3-5-sonnet). Each event is an
 * `action` or an `observation` (`{id, timestamp, source, message, action | observation, args |
 * extras, cause, tool_call_metadata, success}`).
 *
 * - A `message` action from the `user` is the prompt (its `args.content` the title); the run starts
 *   at the agent's first output. `agent_state_changed` to `awaiting_user_input` / `finished`
 *   completes the run (answer: the agent's last `message`), `error` fails it, `stopped` cancels it.
 * - An agent action with `tool_call_metadata` is a tool call (named by its `function_name`, e.g.
 *   `execute_bash`, `str_replace_editor`; call id `tool_call_id`) with its `args`; its `thought` is
 *   thinking; the observation whose `cause` is the action's id finishes it: `success: false` or a
 *   non-zero `extras.metadata.exit_code` marks it failed (a command stopped by the no-output
 *   timeout reports exit code -1). Rounds are model responses (`model_response.id`), with usage.
 * - A `message` action from the agent is the answer; other events (`null` observations, state
 *   changes to `loading`, `init`, `running`) change nothing.
 */
export function openhandsTrajectory(b: RunBuilder): Converter {
  /** Tool call ids by the id of the action that made the call. */
  const calls = new Map<number | string, string>();
  const rounds = new Set<string>();
  let lastAnswer: string | undefined;

  function usage(response: Json): void {
    const id = str(response.id);
    if (!id || rounds.has(id)) return;
    rounds.add(id);
    const u = isObject(response.usage) ? response.usage : {};
    const input = num(u.prompt_tokens);
    const output = num(u.completion_tokens);
    if (input !== undefined || output !== undefined) b.usage({ inputTokens: input, outputTokens: output, contextTokens: (input ?? 0) + (output ?? 0), model: str(response.model) });
  }

  function action(event: Json): void {
    const args = isObject(event.args) ? event.args : {};
    if (event.action === 'message') {
      const text = str(args.content) ?? str(event.message) ?? '';
      if (event.source === 'user') {
        b.endRun();
        b.inputArrived();
        b.prompt(titleFrom(text));
      } else if (event.source === 'agent' && text.trim()) {
        b.modelOutput();
        b.answer(text, `action ${String(event.id)}`);
        lastAnswer = text;
      }
      return;
    }
    const meta = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    if (event.source !== 'agent' || !meta) return;
    const response = isObject(meta.model_response) ? meta.model_response : {};
    const callId = str(meta.tool_call_id) ?? `action ${String(event.id)}`;
    b.modelOutput(str(response.id));
    usage(response);
    const thought = str(args.thought);
    if (thought) b.thinking(thought);
    const { thought: _thought, ...shown } = args;
    calls.set(event.id as number | string, callId);
    b.toolStarted(callId, str(meta.function_name) ?? String(event.action), argsText(shown));
  }

  function observation(event: Json): void {
    const extras = isObject(event.extras) ? event.extras : {};
    if (event.observation === 'agent_state_changed') {
      const state = str(extras.agent_state) ?? '';
      if (COMPLETED_STATES.has(state) && b.runActive) b.complete(lastAnswer);
      else if (state === 'error') b.fail(str(event.message) || 'the agent stopped with an error');
      else if (CANCELLED_STATES.has(state) && b.runActive) b.cancel(state);
      return;
    }
    const callId = event.cause !== undefined ? calls.get(event.cause as number | string) : undefined;
    if (!callId) return;
    calls.delete(event.cause as number | string);
    const metadata = isObject(extras.metadata) ? extras.metadata : {};
    const exit = typeof metadata.exit_code === 'number' ? metadata.exit_code : undefined;
    const failed = event.success === false || (exit !== undefined && exit !== 0) || event.observation === 'error';
    b.inputArrived();
    b.toolFinished(callId, { summary: summarize(str(event.message) ?? str(event.content)), isError: failed });
  }

  return {
    record(value: unknown): void {
      if (!isObject(value)) return;
      b.tick(utc(value.timestamp));
      if (typeof value.action === 'string') action(value);
      else if (typeof value.observation === 'string') observation(value);
    },
    end(): void {
      b.finish();
    },
  };
}
