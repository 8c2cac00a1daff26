import type { SlackLimits } from './limits.js';

/**
 * Shapes and limits of Slack's AI-app blocks, as the emulator checks them before it accepts a message
 * (a break answers `invalid_blocks`):
 * - `task_card` (https://docs.slack.dev/reference/block-kit/blocks/task-card-block/): `task_id` and
 *   `title` strings required; `status` one of `pending`, `in_progress`, `complete`, `error` (`completed`
 *   is refused); `details` / `output` a single `rich_text`; `sources` URL elements;
 * - `plan` (https://docs.slack.dev/reference/block-kit/blocks/plan-block/): a `title` string required,
 *   `tasks` task cards with unique `task_id`s, at most {@link SlackLimits.maxPlanTasks} (50: third-party,
 *   slack-morphism; Slack's page gives no limit, UNCONFIRMED);
 * - `table` (https://docs.slack.dev/reference/block-kit/blocks/table-block): 1 to 100 rows of 1 to 20
 *   cells (`raw_text`, `raw_number` or `rich_text`), `column_settings` at most 20 with `align` left,
 *   center or right;
 * - in one message: no `plan` next to a `task_card` (third party: a GitLab MR; the exact answer is
 *   UNCONFIRMED, the emulator says `invalid_blocks`) and at most one `table` (third-party reports
 *   name `only_one_table_allowed`, some under `invalid_attachments`; UNCONFIRMED, the emulator says
 *   `invalid_blocks`).
 */

const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);
const ALIGNMENTS = new Set(['left', 'center', 'right']);

/** The block types this file checks. */
export const AGENT_BLOCK_TYPES: ReadonlySet<string> = new Set(['plan', 'task_card', 'table']);

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Why a `rich_text` value is not one, or undefined. */
function richTextProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.type !== 'rich_text' || !Array.isArray(value.elements) || value.elements.length === 0) return 'must be a rich_text with elements';
  for (const element of value.elements) {
    if (!isObject(element) || typeof element.type !== 'string' || !Array.isArray(element.elements)) return 'has an element without type or elements';
    for (const leaf of element.elements) {
      if (!isObject(leaf) || typeof leaf.type !== 'string') return 'has a leaf without type';
      if (leaf.type === 'text' && !isText(leaf.text)) return 'has an empty text';
    }
  }
  return undefined;
}

/** Why a task (a `task_card` block, or a `plan`'s task) breaks the rules, or undefined. */
function taskProblem(task: Loose): string | undefined {
  if (!isText(task.task_id)) return 'needs a task_id';
  if (!isText(task.title)) return 'needs a title';
  if (task.status !== undefined && !TASK_STATUSES.has(task.status as string)) return `status ${JSON.stringify(task.status)} is not pending, in_progress, complete or error`;
  for (const field of ['details', 'output'] as const) {
    if (task[field] === undefined) continue;
    const problem = richTextProblem(task[field]);
    if (problem) return `${field} ${problem}`;
  }
  if (task.sources !== undefined && (!Array.isArray(task.sources) || task.sources.some((s) => !isObject(s) || s.type !== 'url' || !isText(s.url)))) return 'sources must be url elements';
  return undefined;
}

/** Why a table cell breaks the rules, or undefined. */
function cellProblem(cell: unknown): string | undefined {
  if (!isObject(cell)) return 'is not an object';
  if (cell.type === 'raw_text' || cell.type === 'raw_number') return isText(cell.text) ? undefined : 'needs text';
  if (cell.type === 'rich_text') return richTextProblem(cell);
  return `type ${JSON.stringify(cell.type)} is not raw_text, raw_number or rich_text`;
}

/** Why one `plan`, `task_card` or `table` block breaks the rules, or undefined. */
export function agentBlockProblem(block: Loose, limits: SlackLimits): string | undefined {
  if (block.type === 'task_card') return taskProblem(block);
  if (block.type === 'plan') {
    if (!isText(block.title)) return 'plan needs a title';
    if (block.tasks === undefined) return undefined;
    if (!Array.isArray(block.tasks) || block.tasks.length > limits.maxPlanTasks) return `plan tasks must be a list of at most ${limits.maxPlanTasks}`;
    const ids = new Set<unknown>();
    for (const [j, task] of block.tasks.entries()) {
      const problem = isObject(task) ? taskProblem(task) : 'is not an object';
      if (problem) return `plan task ${j} ${problem}`;
      if (ids.has(task.task_id)) return `plan task ${j} repeats task_id ${JSON.stringify(task.task_id)}`;
      ids.add(task.task_id);
    }
    return undefined;
  }
  if (block.type === 'table') {
    if (!Array.isArray(block.rows) || block.rows.length === 0 || block.rows.length > limits.maxTableRows) return `table needs 1 to ${limits.maxTableRows} rows`;
    for (const [r, row] of block.rows.entries()) {
      if (!Array.isArray(row) || row.length === 0 || row.length > limits.maxTableCells) return `table row ${r} needs 1 to ${limits.maxTableCells} cells`;
      for (const [c, cell] of row.entries()) {
        const problem = cellProblem(cell);
        if (problem) return `table cell ${r},${c} ${problem}`;
      }
    }
    const settings = block.column_settings;
    if (settings === undefined) return undefined;
    if (!Array.isArray(settings) || settings.length > limits.maxTableCells) return `table column_settings must be a list of at most ${limits.maxTableCells}`;
    if (settings.some((s) => !isObject(s) || (s.align !== undefined && !ALIGNMENTS.has(s.align as string)))) return 'table column_settings align must be left, center or right';
    return undefined;
  }
  return undefined;
}

/** Why a message's blocks together break the rules (a `plan` next to a `task_card`, two tables), or undefined. */
export function agentMessageProblem(blocks: readonly unknown[]): string | undefined {
  const count = (type: string) => blocks.filter((b) => isObject(b) && b.type === type).length;
  if (count('plan') > 0 && count('task_card') > 0) return 'plan and task_card blocks in one message';
  if (count('table') > 1) return 'only_one_table_allowed';
  return undefined;
}
