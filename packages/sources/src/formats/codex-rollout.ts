import type { RunBuilder } from '../run-builder.js';
import { argsText, isObject, num, parseTime, str, titleFrom, type Json } from '../text.js';
import type { Converter } from './converter.js';
import { codeModeCall, codeModePlan } from './codex-code-mode.js';
import { codexOutput } from './codex-output.js';
import { diffCounts, planFromCall, type FileChange } from '../tool-effects.js';

/**
 * The files of a `patch_apply_end` event's `changes` (`{ path: { type: add | update | delete,
 * content | unified_diff, move_path } }`), with their line counts.
 */
function patchApplyChanges(changes: unknown): FileChange[] {
  // Older versions give an added file as a diff too; newer ones as its `content`.
  if (!isObject(changes)) return [];
  return Object.entries(changes).flatMap(([path, change]): FileChange[] => {
    if (!isObject(change)) return [];
    const target = str(change.move_path) ?? path;
    if (change.type === 'delete') return [{ path: target, kind: 'deleted' }];
    const diff = str(change.unified_diff);
    const counts: { added?: number; removed?: number } = diff === undefined ? {} : diffCounts(diff);
    if (change.type === 'add') {
      const content = str(change.content);
      const added = content === undefined ? counts.added : content === '' ? 0 : content.replace(/\n$/, '').split('\n').length;
      return [{ path: target, kind: 'added', ...(added === undefined ? {} : { added }) }];
    }
    return [{ path: target, ...counts }];
  });
}

interface Totals {
  readonly input: number;
  readonly output: number;
}

/** Text of a message's `output_text` / `input_text` parts, or of a reasoning item's summary and content. */
function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n\n');
}

/** The text parts of a UserMessage item's `content` (`[{type: 'text', text}]`), joined. */
function userMessageText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && part.type === 'text' ? (str(part.text) ?? '') : '')).filter(Boolean).join('\n');
}

/**
 * Codex rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`): `session_meta`,
 * `turn_context`, `response_item` and `event_msg` records, each with a timestamp.
 *
 * - Runs: `event_msg` `task_started` opens a run (newer versions), `user_message` (or, from 0.163,
 *   `item_completed` with a `UserMessage` item) gives its title;
 *   in older versions (no `task_started`) each `user_message` starts a run and ends the one before.
 *   `task_complete` completes it (answer: `last_agent_message`), `turn_aborted` cancels it, `error`
 *   fails it. Without those, the run ends as the trace suggests (see {@link RunBuilder}).
 * - Model output is read from `response_item`s (`reasoning` summary → thinking, assistant `message` →
 *   answer, `function_call` / `custom_tool_call` / `local_shell_call` → tool start; their `*_output`
 *   → tool finish). The `event_msg` copies (`agent_message`, `agent_reasoning`) are skipped.
 * - Rounds: model output (or a new token count) after a tool output or a prompt opens a round.
 * - Code mode (0.144: `custom_tool_call` `exec` whose input is JavaScript calling `tools.exec_command`
 *   and kin): the tool line shows the inner call and command, the outcome reads the nested exit codes
 *   (see {@link codeModeCall}, {@link codexOutput}). `compacted` / `world_state` records start nothing.
 * - Tool durations: older versions stamp a call and its output alike; when the output reports its
 *   own duration (`metadata.duration_seconds`, `Wall time:`), the finish is at start + duration.
 * - Plan and files: an `update_plan` call is the plan (see `RunBuilder.toolStarted`);
 *   `patch_apply_end` (unless `success: false`) reports the files a patch changed, with line counts.
 * - Usage: `token_count` events carry running totals; each one sends the difference to the last
 *   (repeated totals send nothing): input (cached included) and output tokens (reasoning
 *   included), the last call's `total_tokens` as context, `model_context_window` as window.
 */
export function codexRollout(b: RunBuilder): Converter {
  let explicitTurns = false;
  let titled = false;
  let window: number | undefined;
  let totals: Totals | undefined;
  let webSearches = 0;

  function tokenCount(payload: Json): void {
    const info = isObject(payload.info) ? payload.info : undefined;
    if (!info) return;
    window = num(info.model_context_window) ?? window;
    const total = isObject(info.total_token_usage) ? info.total_token_usage : undefined;
    const last = isObject(info.last_token_usage) ? info.last_token_usage : undefined;
    const now: Totals = { input: num(total?.input_tokens) ?? 0, output: num(total?.output_tokens) ?? 0 };
    let input: number;
    let output: number;
    if (totals && now.input >= totals.input && now.output >= totals.output) {
      input = now.input - totals.input;
      output = now.output - totals.output;
    } else {
      input = totals ? (num(last?.input_tokens) ?? 0) : now.input;
      output = totals ? (num(last?.output_tokens) ?? 0) : now.output;
    }
    totals = now;
    if (input === 0 && output === 0) return;
    // A new count belongs to a model call: in older versions it comes before that call's items.
    b.modelOutput();
    b.usage({ inputTokens: input, outputTokens: output, contextTokens: num(last?.total_tokens), contextWindow: window });
  }

  /** A typed prompt: it titles the turn (and starts a run, in versions without `task_started`). */
  function userPrompt(text: string): void {
    if (!explicitTurns) b.endRun();
    else if (titled) return; // a message typed while the turn runs does not start a run
    titled = true;
    b.inputArrived();
    b.prompt(titleFrom(text));
  }

  function eventMsg(payload: Json): void {
    switch (payload.type) {
      case 'task_started':
        explicitTurns = true;
        titled = false;
        window = num(payload.model_context_window) ?? window;
        b.endRun();
        b.inputArrived();
        b.prompt(undefined);
        return;
      case 'item_completed': {
        // Codex 0.163+: the prompt is an `item_completed` UserMessage (no `user_message` any more).
        const item = isObject(payload.item) ? payload.item : undefined;
        if (item?.type === 'UserMessage') userPrompt(userMessageText(item.content));
        return;
      }
      case 'user_message':
        userPrompt(str(payload.message) ?? '');
        return;
      case 'token_count':
        tokenCount(payload);
        return;
      case 'patch_apply_end':
        if (payload.success !== false) b.filesChanged(patchApplyChanges(payload.changes));
        return;
      case 'task_complete':
        b.complete(str(payload.last_agent_message));
        return;
      case 'turn_aborted':
        b.cancel(str(payload.reason) ?? 'aborted');
        return;
      case 'error':
        b.fail(str(payload.message) ?? 'error');
        return;
      default:
        return;
    }
  }

  function responseItem(payload: Json): void {
    switch (payload.type) {
      case 'message':
        if (payload.role !== 'assistant') return;
        b.modelOutput();
        b.answer(partsText(payload.content), `line ${b.line}`);
        return;
      case 'reasoning': {
        const text = partsText(payload.summary) || partsText(payload.content);
        b.modelOutput();
        b.thinking(text);
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const callId = str(payload.call_id) ?? str(payload.id);
        const name = payload.type === 'local_shell_call' ? 'local_shell' : str(payload.name);
        if (!callId || !name) {
          b.error(`${String(payload.type)} without ${callId ? 'a name' : 'a call_id'}`);
          return;
        }
        b.modelOutput();
        if (payload.type === 'custom_tool_call' && name === 'exec' && typeof payload.input === 'string' && /\btools\.\w+\s*\(/.test(payload.input)) {
          // Code mode: the script's inner call is what the card shows.
          const inner = codeModeCall(payload.input);
          if (inner.name !== 'update_plan') b.toolStarted(callId, inner.name, argsText(inner.args));
          else {
            // A plan update is the plan, read off the script's object literal; a script that goes
            // on to call other tools (update_plan, then exec_command) is also that call's tool line.
            const plan = argsText({ plan: codeModePlan(payload.input) });
            const next = codeModeCall(payload.input, ['update_plan']);
            if (next.name === 'exec') b.toolStarted(callId, 'update_plan', plan);
            else {
              const items = planFromCall('update_plan', plan);
              if (items) b.plan(items);
              b.toolStarted(callId, next.name, argsText(next.args));
            }
          }
        } else b.toolStarted(callId, name, argsText(payload.arguments ?? payload.input ?? payload.action));
        return;
      }
      case 'web_search_call': {
        const callId = str(payload.id) ?? `web_search_call@${b.line}#${++webSearches}`;
        b.modelOutput();
        b.toolStarted(callId, 'web_search', argsText(payload.action));
        b.inputArrived();
        b.toolFinished(callId, { isError: payload.status === 'failed' });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const callId = str(payload.call_id);
        if (!callId) {
          b.error(`${String(payload.type)} without a call_id`);
          return;
        }
        b.inputArrived();
        b.toolFinished(callId, codexOutput(payload.output));
        return;
      }
      default:
        return;
    }
  }

  return {
    record(value: unknown): void {
      if (!isObject(value)) return;
      b.tick(parseTime(value.timestamp));
      const payload = isObject(value.payload) ? value.payload : undefined;
      if (!payload) return;
      if (value.type === 'turn_context') b.setModel(str(payload.model));
      else if (value.type === 'event_msg') eventMsg(payload);
      else if (value.type === 'response_item') responseItem(payload);
    },
    end(): void {
      b.finish();
    },
  };
}

