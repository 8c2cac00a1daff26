import { formatClockTime } from '../../card/format/footer.js';
import type { ChangedFile, Locale, PlanView } from '../../card/view.js';
import type { PlanItemStatus } from '../../events/contract.js';
import { cut } from '../../card/format/text.js';

/**
 * The words and marks of the card sections every channel draws the same way: the plan checklist,
 * the changed files and the liveness note. Renderers add only their platform's markup.
 */

/** Checklist marks: ✅ done, ▶ in progress, ○ pending. */
export const PLAN_MARKS: Readonly<Record<PlanItemStatus, string>> = { completed: '✅', in_progress: '▶', pending: '○' };

/** The heading over the plan checklist. */
export const PLAN_HEADINGS: Readonly<Record<Locale, string>> = { 'zh-CN': '计划', en: 'Plan' };

/** `计划 · 3 / 5` / `Plan · 3 / 5`: the heading with how many items are completed. */
export function planHeading(plan: PlanView, locale: Locale): string {
  return `${PLAN_HEADINGS[locale]} · ${plan.done} / ${plan.total}`;
}

/** Longest plan item shown on a line, in characters. */
export const MAX_PLAN_ITEM_CHARS = 120;

/**
 * The checklist lines (`✅ Read the code`), at most `maxItems`: when longer, the in-progress item
 * and its neighbours stay and the rest is counted on a last line (`…另有 4 项` / `…4 more`).
 */
export function planLines(plan: PlanView, locale: Locale, maxItems = 12): string[] {
  const line = (index: number) => `${PLAN_MARKS[plan.items[index]!.status]} ${cut(plan.items[index]!.text, MAX_PLAN_ITEM_CHARS)}`;
  if (plan.items.length <= maxItems) return plan.items.map((_, i) => line(i));
  const current = plan.items.findIndex((item) => item.status !== 'completed');
  const from = Math.max(0, Math.min((current < 0 ? plan.items.length : current) - 1, plan.items.length - maxItems));
  const lines: string[] = [];
  if (from > 0) lines.push(locale === 'zh-CN' ? `…前 ${from} 项` : `…${from} earlier`);
  for (let i = from; i < from + maxItems; i++) lines.push(line(i));
  const after = plan.items.length - from - maxItems;
  if (after > 0) lines.push(locale === 'zh-CN' ? `…另有 ${after} 项` : `…${after} more`);
  return lines;
}

/** `修改了 4 个文件` / `4 files changed`. */
export function changedFilesHeading(count: number, locale: Locale): string {
  return locale === 'zh-CN' ? `修改了 ${count} 个文件` : `${count} file${count === 1 ? '' : 's'} changed`;
}

const KIND_WORDS = {
  'zh-CN': { added: '新建', deleted: '删除' },
  en: { added: 'new', deleted: 'deleted' },
} as const;

/** Longest path shown, in characters; longer ones keep their end (`…/render/card.ts`). */
export const MAX_PATH_CHARS = 80;

/**
 * The files' paths as shown: the directory all absolute paths share (the work tree, e.g.
 * `/tmp/solver-1762/`) is left out (when all are in one directory, its name stays), and a long
 * path keeps its end.
 */
export function shownPaths(files: readonly ChangedFile[]): string[] {
  const absolute = files.length > 1 && files.every((file) => file.path.startsWith('/'));
  let prefix = '';
  if (absolute) {
    const dirs = files.map((file) => file.path.slice(0, file.path.lastIndexOf('/') + 1));
    prefix = dirs.reduce((common, dir) => {
      let i = 0;
      while (i < common.length && i < dir.length && common[i] === dir[i]) i++;
      return common.slice(0, common.lastIndexOf('/', i - 1) + 1);
    });
    // All in one directory: keep its name (`src/a.ts`, not `a.ts`).
    if (dirs.every((dir) => dir === prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  }
  return files.map((file) => {
    const path = file.path.slice(prefix.length) || file.path;
    return path.length <= MAX_PATH_CHARS ? path : `…${path.slice(path.length - MAX_PATH_CHARS + 1)}`;
  });
}

/** One file as a summary item: `src/a.ts (+12 −3)`, `notes.md (new, +40)`, `old.ts (deleted)`; the counts when known. */
export function changedFileText(file: ChangedFile, shownPath: string, locale: Locale): string {
  const parts: string[] = [];
  if (file.kind !== 'modified') parts.push(KIND_WORDS[locale][file.kind]);
  const counts = [file.added !== undefined && (file.added > 0 || file.removed === undefined || file.removed === 0) ? `+${file.added}` : '', file.removed ? `−${file.removed}` : '']
    .filter(Boolean)
    .join(' ');
  if (counts) parts.push(counts);
  return parts.length > 0 ? `${shownPath} (${parts.join(', ')})` : shownPath;
}

/**
 * The changed-files summary: the heading and one item per file, at most `maxFiles` (the rest
 * counted as `…and 3 more`), e.g. `4 files changed: src/a.ts (+12 −3), …`.
 */
export function changedFilesLines(files: readonly ChangedFile[], locale: Locale, maxFiles = 8): { heading: string; items: string[] } {
  const paths = shownPaths(files);
  const items = files.slice(0, maxFiles).map((file, i) => changedFileText(file, paths[i]!, locale));
  const more = files.length - maxFiles;
  if (more > 0) items.push(locale === 'zh-CN' ? `…另有 ${more} 个文件` : `…and ${more} more`);
  return { heading: changedFilesHeading(files.length, locale), items };
}

/** `⏳ 12:03 后暂无新进展` / `⏳ No new progress since 12:03`, the time in `timeZone` (default the process's). */
export function noProgressNote(since: number, locale: Locale, timeZone?: string): string {
  const time = formatClockTime(since, timeZone);
  return locale === 'zh-CN' ? `⏳ ${time} 后暂无新进展` : `⏳ No new progress since ${time}`;
}
