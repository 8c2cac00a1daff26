import { escapeHtml, renderMarkdown } from './markdown.js';

/**
 * Slack's AI-app parts → HTML for the preview page: `plan` and `task_card` blocks
 * (https://docs.slack.dev/reference/block-kit/blocks/plan-block/, …/task-card-block/), the `table`
 * block (…/table-block), and a streamed message's plan and task steps (`plan_update` /
 * `task_update` chunks, drawn as Slack draws them in plan mode). Titles are plain text.
 */

interface Task {
  readonly task_id?: string;
  readonly id?: string;
  readonly title?: string;
  readonly status?: string;
  readonly details?: unknown;
}

/** Slack's task marks: ✓ complete, spinner in progress, ✕ error, ○ pending. */
const MARKS: Record<string, string> = { complete: '✓', in_progress: '◐', error: '✕', pending: '○' };

/** The plain text of a `rich_text` (or `raw_text` / `raw_number`) value, a line per section. */
function richTextOf(value: unknown): string {
  const v = value as { text?: unknown; elements?: { elements?: { text?: unknown }[] }[] } | undefined;
  if (typeof v?.text === 'string') return v.text;
  return (v?.elements ?? []).map((section) => (section.elements ?? []).map((leaf) => (typeof leaf.text === 'string' ? leaf.text : '')).join('')).join('\n');
}

function taskHtml(task: Task): string {
  const status = task.status ?? 'pending';
  const details = task.details === undefined ? '' : typeof task.details === 'string' ? task.details : richTextOf(task.details);
  return `<li class="task task-${escapeHtml(status)}"><span class="mark">${MARKS[status] ?? '•'}</span> ${escapeHtml(task.title ?? '')}${details ? `<div class="note">${escapeHtml(details).replace(/\n/g, '<br>')}</div>` : ''}</li>`;
}

/** A `plan` block (or a stream's plan title and tasks) as a titled checklist. */
export function planHtml(title: string, tasks: readonly Task[]): string {
  return `<div class="el plan"><div class="plan-title">${escapeHtml(title)}</div><ul class="tasks">${tasks.map(taskHtml).join('')}</ul></div>`;
}

/** A `task_card` block as one task row. */
export function taskCardHtml(task: Task): string {
  return `<ul class="el tasks">${taskHtml(task)}</ul>`;
}

/** A `table` block as an HTML table, its first row as the header, `column_settings` alignment kept. */
export function tableHtml(rows: readonly (readonly unknown[])[], settings: readonly { align?: string }[] = []): string {
  const align = (c: number) => (settings[c]?.align && /^(left|center|right)$/.test(settings[c]!.align!) ? ` style="text-align:${settings[c]!.align}"` : '');
  const row = (cells: readonly unknown[], tag: 'th' | 'td') => `<tr>${cells.map((cell, c) => `<${tag}${align(c)}>${escapeHtml(richTextOf(cell))}</${tag}>`).join('')}</tr>`;
  const [head, ...body] = rows;
  return `<div class="el markdown"><table>${head ? `<thead>${row(head, 'th')}</thead>` : ''}<tbody>${body.map((cells) => row(cells, 'td')).join('')}</tbody></table></div>`;
}

/** A streamed message: its plan and task steps, then its text (standard Markdown, `markdown_text`). */
export function streamHtml(text: string, stream: { readonly planTitle?: string; readonly tasks: readonly Task[] }): string {
  const parts: string[] = [];
  if (stream.planTitle !== undefined || stream.tasks.length > 0) parts.push(planHtml(stream.planTitle ?? '', stream.tasks));
  if (text !== '') parts.push(`<div class="el markdown">${renderMarkdown(text)}</div>`);
  return parts.join('');
}
