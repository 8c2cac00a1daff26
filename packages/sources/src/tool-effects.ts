import type { PlanItem, PlanItemStatus } from '@progresscard/core';
import { isObject, str, type Json } from './text.js';

/**
 * What some tool calls mean beyond their tool line: a plan tool call is the agent's checklist (the
 * card shows it as a plan, not as a call), and a file-writing call changes files (the final card
 * sums them up). Pure functions of a call's name and arguments, shared by every trace format.
 */

/** One file change read off a tool call, as the `file.changed` event carries it. */
export interface FileChange {
  readonly path: string;
  readonly added?: number;
  readonly removed?: number;
  readonly kind?: 'added' | 'modified' | 'deleted';
}

/** Tool names whose calls set the agent's plan: Claude Code, Codex, OpenCode, Gemini CLI. */
export const PLAN_TOOL_NAMES: ReadonlySet<string> = new Set(['TodoWrite', 'update_plan', 'todowrite', 'write_todos']);

function parseArgs(args: string | Json | undefined): Json | undefined {
  if (args === undefined) return undefined;
  if (typeof args !== 'string') return args;
  const text = args.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A plan item state in the words tools use; `undefined` for one the card does not show (`cancelled`). */
function planStatus(value: unknown): PlanItemStatus | undefined {
  if (value === true) return 'completed';
  if (value === false || value === undefined) return 'pending';
  const word = String(value).toLowerCase().replace(/[\s-]/g, '_');
  if (word === 'completed' || word === 'done' || word === 'complete') return 'completed';
  if (word === 'in_progress' || word === 'active' || word === 'running') return 'in_progress';
  if (word === 'pending' || word === 'todo' || word === 'not_started') return 'pending';
  return undefined;
}

/**
 * The plan a list of items sets: Claude `{content, status}`, Codex `{step, status}`, Codex exec
 * `{text, completed}`, Gemini `{description, status}`. Cancelled items are left out.
 */
export function planItems(value: unknown): PlanItem[] | undefined {
  // Some OpenCode forks pass the list as JSON text (`{"todos": "[{…}]"}`).
  const list = typeof value === 'string' && value.trim().startsWith('[') ? parseList(value) : value;
  if (!Array.isArray(list)) return undefined;
  const items: PlanItem[] = [];
  for (const entry of list) {
    if (!isObject(entry)) continue;
    const text = str(entry.content) ?? str(entry.step) ?? str(entry.text) ?? str(entry.description) ?? str(entry.title);
    const status = planStatus(entry.status ?? entry.completed);
    if (text?.trim() && status) items.push({ text, status });
  }
  return items;
}

function parseList(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The plan a call sets when it is a plan tool call ({@link PLAN_TOOL_NAMES}) with readable
 * arguments (`todos` or `plan` list); `undefined` otherwise (the call stays an ordinary tool line).
 */
export function planFromCall(name: string, args: string | Json | undefined): PlanItem[] | undefined {
  if (!PLAN_TOOL_NAMES.has(name)) return undefined;
  const parsed = parseArgs(args);
  return planItems(parsed?.todos ?? parsed?.plan);
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.replace(/\n$/, '').split('\n').length;
}

/** Lines removed and added when `before` becomes `after`, leaving out the lines both start and end with. */
function replacementCounts(before: string, after: string): { added: number; removed: number } {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { removed: a.length - start - end, added: b.length - start - end };
}

/**
 * The files of an `apply_patch` patch (`*** Begin Patch` … `*** Add File: p` / `*** Update File: p`
 * [`*** Move to: q`] / `*** Delete File: p` …): each with its `+` and `-` lines counted.
 */
export function patchChanges(patch: string): FileChange[] {
  const changes: { path: string; added: number; removed: number; kind: 'added' | 'modified' | 'deleted' }[] = [];
  let current: (typeof changes)[number] | undefined;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      const kind = header[1] === 'Add' ? 'added' : header[1] === 'Delete' ? 'deleted' : 'modified';
      current = { path: header[2]!.trim(), added: 0, removed: 0, kind };
      changes.push(current);
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && current) current.path = move[1]!.trim();
    else if (line.startsWith('***')) continue;
    else if (current && line.startsWith('+')) current.added++;
    else if (current && line.startsWith('-')) current.removed++;
  }
  return changes.map((change) => (change.kind === 'deleted' ? { path: change.path, kind: 'deleted' } : change));
}

/** `+` / `-` lines of a unified diff (hunk bodies only, not the `---` / `+++` headers). */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

const pathOf = (args: Json) => str(args.file_path) ?? str(args.path) ?? str(args.filePath) ?? str(args.absolute_path);
const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The files a file-writing call changes once it succeeds, read off its name and arguments:
 * - whole-file writes (`Write`, `write_file`, `write`, `create`): `+` the lines written;
 * - replacements (`Edit`, `replace`, `edit`, `str_replace`…: `old_string`/`new_string`, camelCase too)
 *   and `MultiEdit` (`edits`): the lines that differ;
 * - `apply_patch` (the patch as the argument text, or in `input` / `patch` / `command`): per file;
 * - Codex exec `file_change` (`changes: [{path, kind}]`): the paths, no counts.
 * Any other call changes no file (`[]`).
 */
export function fileChangesFromCall(name: string, args: string | Json | undefined): FileChange[] {
  const base = name.split(/[.›/ ]/).filter(Boolean).pop() ?? name;
  if (base === 'apply_patch' || (typeof args === 'string' && args.trimStart().startsWith('*** Begin Patch'))) {
    if (typeof args === 'string' && args.includes('*** Begin Patch') && !args.trimStart().startsWith('{')) return patchChanges(args);
    const parsed = parseArgs(args);
    const command = Array.isArray(parsed?.command) ? parsed.command.find((part) => typeof part === 'string' && part.includes('*** Begin Patch')) : undefined;
    const patch = textOf(parsed?.input) ?? textOf(parsed?.patch) ?? textOf(command);
    return patch ? patchChanges(patch) : [];
  }
  const parsed = parseArgs(args);
  if (!parsed) return [];
  if (base === 'file_change' && Array.isArray(parsed.changes)) {
    return parsed.changes.filter(isObject).flatMap((change) => {
      const path = str(change.path);
      if (!path) return [];
      const kind = change.kind === 'add' ? 'added' : change.kind === 'delete' ? 'deleted' : 'modified';
      return [{ path, kind } as FileChange];
    });
  }
  const path = pathOf(parsed);
  if (!path) return [];
  const lower = base.toLowerCase();
  if (['write', 'write_file', 'create', 'create_file'].includes(lower)) {
    const content = textOf(parsed.content) ?? textOf(parsed.file_text) ?? textOf(parsed.contents);
    return content === undefined ? [] : [{ path, added: lineCount(content) }];
  }
  if (lower === 'multiedit' && Array.isArray(parsed.edits)) {
    let added = 0;
    let removed = 0;
    for (const edit of parsed.edits.filter(isObject)) {
      const counts = replacementCounts(textOf(edit.old_string) ?? textOf(edit.oldString) ?? '', textOf(edit.new_string) ?? textOf(edit.newString) ?? '');
      added += counts.added;
      removed += counts.removed;
    }
    return [{ path, added, removed }];
  }
  if (['edit', 'replace', 'str_replace', 'str_replace_editor', 'str_replace_based_edit_tool', 'edit_file'].includes(lower)) {
    const before = textOf(parsed.old_string) ?? textOf(parsed.oldString) ?? textOf(parsed.old_str);
    const after = textOf(parsed.new_string) ?? textOf(parsed.newString) ?? textOf(parsed.new_str);
    if (before === undefined || after === undefined) return [];
    return [{ path, ...replacementCounts(before, after) }];
  }
  return [];
}
