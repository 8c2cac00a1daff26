import { MAX_TOOL_DETAIL_SOURCE_CHARS } from './card-limits.js';
import { formatDuration } from './format/duration.js';
import { cut } from './format/text.js';
import { redactSecrets, type Redact } from './redaction.js';
import type { Locale, ToolLine, ToolLineState } from './view.js';

/** Longest tool detail shown on a line, in characters; longer ones end with `…`. */
export const MAX_TOOL_DETAIL_CHARS = 80;

/** Argument keys that say what a call works on, most telling first. */
const DETAIL_KEYS = ['command', 'cmd', 'file_path', 'path', 'pattern', 'query', 'q', 'url', 'description', 'prompt'];

function shorten(text: string, redact: Redact): string {
  // Redacted before the cut (a secret cut in half would no longer look like one) and before the
  // lines are joined (a `.env` line is recognised as a line).
  // Only the start is read: the detail shows 80 characters, and a 10 MB command must not be redacted whole.
  const oneLine = redact(text.slice(0, MAX_TOOL_DETAIL_SOURCE_CHARS)).replace(/\s+/g, ' ').replace(/`/g, "'").trim();
  return cut(oneLine, MAX_TOOL_DETAIL_CHARS);
}

function fromObject(args: Record<string, unknown>, redact: Redact): string {
  for (const key of DETAIL_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.trim()) return shorten(value, redact);
    if (Array.isArray(value) && value.every((part) => typeof part === 'string') && value.length > 0) {
      // codex: {"command": ["bash", "-lc", "npm test"]} → the script, not the shell
      const parts = value as string[];
      const script = parts.length >= 3 && /^-\w*c$/.test(parts[parts.length - 2]!) ? parts[parts.length - 1]! : parts.join(' ');
      return shorten(script, redact);
    }
  }
  return '';
}

/**
 * What a tool call works on, for its card line: the command of a shell call, the path of a file
 * call, the pattern of a search… Works on complete JSON, on an object, and on partial JSON
 * still streaming in (`{"command":"npm te`). Returns `''` when nothing fits. Secrets in it are
 * replaced by `redact` (default: the standard patterns, see `redactSecrets`) before it is shortened.
 */
export function toolDetail(args: string | Record<string, unknown> | undefined, redact: Redact = redactSecrets): string {
  if (args === undefined) return '';
  if (typeof args !== 'string') return fromObject(args, redact);
  const trimmed = args.trim();
  if (!trimmed) return '';
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return fromObject(parsed as Record<string, unknown>, redact);
    } catch {
      for (const key of DETAIL_KEYS) {
        const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)`).exec(trimmed);
        if (match) return shorten(match[1]!.replace(/\\(.)/g, '$1'), redact);
      }
    }
    return '';
  }
  return shorten(trimmed, redact);
}

const words = {
  'zh-CN': { running: '执行中', finished: '完成', failed: '失败', result: '结果', interrupted: '已中断', open: '（', close: '）', colon: '：', dot: ' · ' },
  en: { running: 'running', finished: 'done', failed: 'failed', result: 'result', interrupted: 'interrupted', open: ' (', close: ')', colon: ': ', dot: ' · ' },
} as const;

/** A subagent's tool count on its line: `3 tools` / `3 次工具调用`. */
function subagentTools(count: number, locale: Locale): string {
  return locale === 'zh-CN' ? `${count} 次工具调用` : `${count} tool${count === 1 ? '' : 's'}`;
}

/** The parts of a line that {@link toolLineText} needs. */
export interface ToolLineParts {
  readonly name: string;
  readonly detail: string;
  readonly state: ToolLineState;
  readonly summary?: string;
  /** Running time in ms (a done subagent call: its whole run time); under 1000 no duration is shown. */
  readonly elapsedMs: number;
  /** On a subagent's call (Claude `Task`): how many tool calls its subagent made; shown when above 0. */
  readonly subagentTools?: number;
}

/**
 * A tool line's text. With a detail: `shell: \`npm test\`（执行中 · 3 秒）`, `shell: \`npm test\`（完成 · 212 passed）`;
 * without: `read_file：执行中…（1 分 30 秒）`, `read_file：完成（120 lines）`. English uses `running`, `done`,
 * `failed` and ASCII brackets. Running lines show the duration from 1 s on; finished lines show the summary;
 * a done subagent call (`subagentTools` above 0) shows its run time before its summary.
 */
export function toolLineText(line: ToolLineParts, locale: Locale): string {
  const w = words[locale];
  const summary = line.summary ? shortSummary(line.summary) : '';
  // A subagent's line keeps its run time once done (`done · 2m 5s · 7 tools`): it stands for its folded calls.
  const timed = line.state === 'running' || (line.subagentTools ?? 0) > 0;
  const duration = timed && line.elapsedMs >= 1000 ? formatDuration(line.elapsedMs, locale) : '';
  const state = w[line.state === 'orphan' ? 'result' : line.state];
  const own = line.state === 'running' ? duration : line.subagentTools ? [duration, summary].filter(Boolean).join(w.dot) : summary;
  const count = line.subagentTools ? subagentTools(line.subagentTools, locale) : '';
  const extra = [own, count].filter(Boolean).join(w.dot);
  if (line.detail) {
    const inside = extra ? `${state}${w.dot}${extra}` : state;
    return `${line.name}: \`${line.detail}\`${w.open}${inside}${w.close}`;
  }
  const head = line.state === 'running' ? `${state}…` : state;
  return `${line.name}${w.colon}${head}${extra ? `${w.open}${extra}${w.close}` : ''}`;
}

function shortSummary(summary: string): string {
  const first = summary.split('\n').find((part) => part.trim()) ?? '';
  const oneLine = first.trim();
  return cut(oneLine, 120);
}

/** Mutable per-call record kept by the card state; turned into a {@link ToolLine} for each view. */
export interface ToolCallRecord {
  callId: string;
  name: string;
  args: string;
  detail: string;
  state: ToolLineState;
  summary?: string;
  startedAt?: number;
  finishedAt?: number;
  /** The subagent call this call belongs to (`tool.started` `parentCallId`). */
  parentCallId?: string;
  /** Tool calls made by the subagent this call runs. */
  subagentTools?: number;
  /** Memo of the last text: a line only changes when its state, detail, summary, locale, shown second or tool count does. */
  memo?: { state: ToolLineState; second: number; locale: Locale; name: string; detail: string; summary?: string; subagentTools?: number; text: string };
}

/** The view line of a call record at time `now`. */
export function toToolLine(record: ToolCallRecord, now: number, locale: Locale): ToolLine {
  const elapsedMs = record.state === 'running' && record.startedAt !== undefined ? Math.max(0, now - record.startedAt) : 0;
  const second = Math.floor(elapsedMs / 1000);
  const memo = record.memo;
  if (
    !memo || memo.state !== record.state || memo.second !== second || memo.locale !== locale ||
    memo.name !== record.name || memo.detail !== record.detail || memo.summary !== record.summary || memo.subagentTools !== record.subagentTools
  ) {
    const { state, name, detail, summary, subagentTools } = record;
    // A done subagent call shows how long it ran (its line stands for its folded calls).
    const ranMs = record.subagentTools && record.startedAt !== undefined && record.finishedAt !== undefined ? Math.max(0, record.finishedAt - record.startedAt) : elapsedMs;
    record.memo = { state, second, locale, name, detail, summary, subagentTools, text: toolLineText({ ...record, elapsedMs: record.state === 'running' ? elapsedMs : ranMs }, locale) };
  }
  return {
    callId: record.callId,
    name: record.name,
    detail: record.detail,
    state: record.state,
    summary: record.summary,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    elapsedMs,
    ...(record.parentCallId !== undefined ? { parentCallId: record.parentCallId } : {}),
    ...(record.subagentTools ? { subagentTools: record.subagentTools } : {}),
    text: record.memo!.text,
  };
}
