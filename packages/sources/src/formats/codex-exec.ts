import type { RunBuilder, ToolResult } from '../run-builder.js';
import { argsText, isObject, num, str, summarize, type Json } from '../text.js';
import type { Converter } from './converter.js';
import { planItems } from '../tool-effects.js';

/** `codex exec --json` item types that are tool calls. */
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

/** Tool names as Codex itself names the calls in its rollout (and `watch` shows them). */
const TOOL_NAMES: Readonly<Record<string, string>> = { command_execution: 'exec_command' };

function toolName(item: Json): string {
  if (item.type === 'mcp_tool_call') return `${str(item.server) ?? 'mcp'}/${str(item.tool) ?? 'tool'}`;
  return TOOL_NAMES[String(item.type)] ?? String(item.type);
}

/**
 * The script of a command that Codex ran through a login shell (`/bin/bash -lc 'sleep 7 && echo
 * done'`, `bash -lc ls`, `zsh -lc "…"`): what the model asked for, without the wrapper Codex adds.
 * Only one whole single- or double-quoted argument (or a bare word list) is unwrapped; anything
 * else is returned as it is.
 */
function unwrapShell(command: string): string {
  const match = /^(?:\S*\/)?(?:bash|zsh|sh)\s+-l?c\s+([\s\S]+)$/.exec(command.trim());
  if (!match) return command;
  const script = match[1]!.trim();
  if (script.length >= 2 && script.startsWith("'") && script.endsWith("'")) {
    // The shell's way to put a quote inside single quotes: '\'' (close, escaped quote, reopen).
    const inner = script.slice(1, -1).replaceAll("'\\''", '\u0000');
    return inner.includes("'") ? command : inner.replaceAll('\u0000', "'");
  }
  if (script.length >= 2 && script.startsWith('"') && script.endsWith('"')) return script.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  return script;
}

function commandOf(item: Json): unknown {
  const command = item.command;
  return typeof command === 'string' ? unwrapShell(command) : command;
}

function toolArgs(item: Json): string | undefined {
  switch (item.type) {
    case 'command_execution':
      return argsText({ cmd: commandOf(item) });
    case 'file_change':
      return argsText({ changes: item.changes });
    case 'mcp_tool_call':
      return argsText(item.arguments ?? {});
    case 'web_search':
      return argsText({ query: item.query });
    default:
      return undefined;
  }
}

/**
 * The text of an MCP tool result (`{content: [{type: 'text', text}…], structured_content}`): its
 * text parts, else its structured content as JSON, else the raw result as JSON.
 */
function mcpResultText(result: unknown): string | undefined {
  if (!isObject(result)) return argsText(result) || undefined;
  const content = Array.isArray(result.content) ? result.content.filter(isObject) : [];
  const texts = content.map((part) => (part.type === 'text' ? (str(part.text) ?? '') : part.type ? `[${String(part.type)}]` : '')).filter(Boolean);
  if (texts.length > 0) return texts.join('\n');
  return argsText(result.structured_content ?? result.structuredContent ?? result) || undefined;
}

function toolResult(item: Json): ToolResult {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (item.type) {
    case 'command_execution': {
      const exitCode = num(item.exit_code);
      return { summary: summarize(str(item.aggregated_output)), isError: failed || (exitCode !== undefined && exitCode !== 0) };
    }
    case 'file_change': {
      const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
      const text = changes.map((change) => `${str(change.kind) ?? 'change'} ${(str(change.path) ?? '').split('/').pop()}`).join(', ');
      return { summary: summarize(text), isError: failed };
    }
    case 'mcp_tool_call': {
      const error = isObject(item.error) ? str(item.error.message) : str(item.error);
      return { summary: summarize(error ?? mcpResultText(item.result)), isError: failed || error !== undefined || (isObject(item.result) && item.result.isError === true) };
    }
    default:
      return { isError: failed };
  }
}

/**
 * `codex exec --json` events (optionally after a `[ISO time] [LEVEL] ` log prefix; a line without
 * one keeps the last time).
 *
 * - Runs: `turn.started` opens a run (the stream carries no prompt and no model, so the run has
 *   neither); `turn.completed` completes it (answer: the last `agent_message`) after sending its
 *   usage (input with cached tokens, output; no per-call split, no context size); `turn.failed`
 *   fails it; a top-level `error` fails the run when the stream then ends without a turn ending.
 * - Items: `reasoning` → thinking, `agent_message` → answer; `command_execution`, `file_change`,
 *   `mcp_tool_call` and `web_search` items are tool calls, named as Codex's rollout names them
 *   (`exec_command` with the command unwrapped from its login shell, MCP calls as `server/tool`), matched by item id (an item first seen
 *   completed starts and finishes at once); a completed `file_change` reports its files. `todo_list`
 *   items (started, updated, completed) are the plan.
 * - Rounds: model output (thinking, text, a tool call) after a tool result opens a round.
 */
export function codexExec(b: RunBuilder): Converter {
  let lastError: string | undefined;

  function item(kind: 'started' | 'updated' | 'completed', value: unknown): void {
    if (!isObject(value)) return;
    const id = str(value.id);
    const type = str(value.type);
    if (!type) return;
    if (type === 'reasoning' && kind === 'completed') {
      b.modelOutput();
      b.thinking(str(value.text) ?? '');
    } else if (type === 'agent_message' && kind === 'completed') {
      b.modelOutput();
      b.answer(str(value.text) ?? '', id ?? `line ${b.line}`);
    } else if (type === 'todo_list') {
      // The agent's plan, updated in place: the card's checklist, not a tool line.
      const items = planItems(value.items);
      if (items) b.plan(items);
    } else if (TOOL_ITEMS.has(type) && kind !== 'updated') {
      if (!id) {
        b.error(`${type} item without an id`);
        return;
      }
      if (b.openToolName(id) === undefined) {
        b.modelOutput();
        b.toolStarted(id, toolName(value), toolArgs(value));
      }
      if (kind === 'completed') {
        b.inputArrived();
        b.toolFinished(id, toolResult(value));
      }
    }
  }

  return {
    record(value: unknown, at: number | undefined): void {
      if (!isObject(value)) return;
      b.tick(at);
      const type = str(value.type) ?? '';
      if (type === 'turn.started') {
        lastError = undefined;
        b.endRun();
        b.prompt(undefined);
        b.ensureRun();
      } else if (type === 'item.started' || type === 'item.updated' || type === 'item.completed') {
        item(type.slice('item.'.length) as 'started' | 'updated' | 'completed', value.item);
      } else if (type === 'turn.completed') {
        const usage = isObject(value.usage) ? value.usage : {};
        b.usage({ inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) });
        b.complete();
      } else if (type === 'turn.failed') {
        const error = isObject(value.error) ? str(value.error.message) : undefined;
        b.fail(error ?? lastError ?? 'turn failed');
      } else if (type === 'error') {
        lastError = str(value.message) ?? 'error';
      }
    },
    end(): void {
      if (lastError && b.runActive) b.fail(lastError);
      b.finish();
    },
  };
}
