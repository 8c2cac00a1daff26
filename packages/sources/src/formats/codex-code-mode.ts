import type { ToolResult } from '../run-builder.js';
import { isObject, num, str, summarize } from '../text.js';

/** The inner call of a code-mode script: the tool it calls and its arguments. */
export interface CodeModeCall {
  /** The first tool the script calls, e.g. `exec_command`; `exec` when it calls none. */
  readonly name: string;
  /** The call's arguments as shown: `{command}` for a command, else the script's first line. */
  readonly args: Record<string, unknown>;
}

/** A JavaScript string literal (double, single or backtick quoted) at the start of `text`, unquoted. */
function stringLiteral(text: string): string | undefined {
  const quote = text[0];
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  let out = '';
  for (let i = 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === quote) return out;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = text[++i];
    if (next === undefined) return undefined;
    out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next;
  }
  return undefined;
}

/** Argument keys whose string value is what a code-mode call does, in order of preference. */
const DETAIL_KEYS = ['cmd', 'command', 'query', 'q', 'path', 'url', 'chars'] as const;

/**
 * The call inside a Codex "code mode" script (`custom_tool_call` `exec` whose input is
 * JavaScript, e.g. `const r = await tools.exec_command({cmd:"git status",workdir:"/x"}); text(r.output);`;
 * seen in Codex 0.144): the first `tools.<name>(` call names it, and its `cmd` (or `command`,
 * `query`, `q`, `path`, `url`) string, else its first string argument, is what the line shows. A script that calls no tool keeps the name
 * `exec` and shows its first line. Calls to the tools in `skip` are passed over (a script that
 * updates the plan and then runs a command is that command).
 */
export function codeModeCall(script: string, skip: readonly string[] = []): CodeModeCall {
  const call = [...script.matchAll(/\btools\.(\w+)\s*\(/g)].find((match) => !skip.includes(match[1]!));
  if (!call) return { name: 'exec', args: { script: script.trim().split('\n')[0] ?? '' } };
  const after = script.slice(call.index + call[0].length);
  for (const key of DETAIL_KEYS) {
    const field = new RegExp(`(?:^|[{,\\s])${key}\\s*:\\s*`).exec(after);
    const value = field ? stringLiteral(after.slice(field.index + field[0].length)) : undefined;
    if (value !== undefined) return { name: call[1]!, args: { [key === 'cmd' ? 'command' : key]: value } };
  }
  // Otherwise the call's first string argument, wherever it sits (`web__run({search_query:[{q:"…"}]})`).
  const quote = /["'`]/.exec(after.split(/\)\s*;/)[0] ?? '');
  const direct = quote ? stringLiteral(after.slice(quote.index)) : undefined;
  if (direct !== undefined) return { name: call[1]!, args: { input: direct.split('\n')[0] ?? '' } };
  return { name: call[1]!, args: { script: script.trim().split('\n')[0] ?? '' } };
}

/**
 * The plan of a code-mode `tools.update_plan({plan:[{step:"…",status:"…"}, …]})` call (a JavaScript
 * object literal, not JSON): each `{…}` holding a `step` and a `status` string is one item, in order.
 */
export function codeModePlan(script: string): Array<{ step: string; status: string }> {
  const call = /\btools\.update_plan\s*\(/.exec(script);
  if (!call) return [];
  const body = script.slice(call.index + call[0].length);
  const items: Array<{ step: string; status: string }> = [];
  for (const object of body.matchAll(/\{([^{}]*)\}/g)) {
    const field = (key: string) => {
      // Keys bare or quoted (`step:"…"`, `"status":"…"`): scripts mix both.
      const at = new RegExp(`(?:^|[{,\\s])(["']?)${key}\\1\\s*:\\s*`).exec(object[1]!);
      return at ? stringLiteral(object[1]!.slice(at.index + at[0].length)) : undefined;
    };
    const step = field('step');
    const status = field('status');
    if (step !== undefined && status !== undefined) items.push({ step, status });
  }
  return items;
}

/** `Script completed|failed|running…` then `Wall time X seconds` then `Output:`: a code-mode result header. */
const HEADER = /^Script (completed|failed|running[^\n]*)\nWall time:? ([\d.]+) seconds?\nOutput:\n?/;

/** True when `texts[0]` is a code-mode result header. */
export function isCodeModeOutput(texts: readonly string[]): boolean {
  return texts.length > 0 && HEADER.test(texts[0]!);
}

/**
 * A nested command result of a code-mode script, if `text` is one: `{"chunk_id":…,"exit_code":1,"output":"…"}`
 * from `exec_command`, or `{"exit_code":1}` that a script prints after the command's own output.
 */
function nestedResult(text: string): { exitCode?: number; output?: string } | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !(trimmed.includes('"chunk_id"') || trimmed.includes('"exit_code"'))) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (!isObject(parsed)) return undefined;
    const exitCode = num(parsed.exit_code);
    const output = str(parsed.output);
    return { ...(exitCode !== undefined ? { exitCode } : {}), ...(output !== undefined ? { output } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * The result of a code-mode script from its output parts: the header says whether the script
 * failed and how long it ran; each command it ran answers with nested JSON whose `exit_code` ≠ 0
 * is a failed command. The summary is the first line of real output (a nested result's `output`,
 * or plain text), `exit N` for a failed command that printed nothing, never the raw JSON.
 */
export function codeModeOutput(texts: readonly string[]): ToolResult {
  const header = HEADER.exec(texts[0] ?? '');
  const seconds = header ? Number(header[2]) : undefined;
  let failed = header?.[1] === 'failed';
  let summary: string | undefined;
  let failedExit: number | undefined;
  const rest = [header ? texts[0]!.slice(header[0].length) : texts[0] ?? '', ...texts.slice(1)];
  for (const text of rest) {
    const nested = nestedResult(text);
    if (nested) {
      if (nested.exitCode !== undefined && nested.exitCode !== 0) {
        failed = true;
        failedExit ??= nested.exitCode;
      }
      summary ??= summarize(nested.output);
    } else if (text.trim() !== '{}') {
      summary ??= summarize(text);
    }
  }
  if (!summary && failedExit !== undefined) summary = `exit ${failedExit}`;
  return {
    ...(summary ? { summary } : {}),
    ...(failed ? { isError: true } : {}),
    ...(seconds !== undefined && Number.isFinite(seconds) ? { durationMs: Math.round(seconds * 1000) } : {}),
  };
}
