import { oneLine, planHeading, toolTree, toolTreeRows, type CardView, type Locale, type ToolLine } from '@progresscard/core/plugin';
import type { SlackBlock, SlackPlanBlock, SlackRichText, SlackTaskCardBlock, SlackTaskStatus } from './payload.js';
import type { SlackLimits } from './limits.js';

/**
 * The run's plan and tool calls as Slack's AI blocks, for a message that is edited in place
 * (`chat.update`; a thread stream sends them as `plan_update` / `task_update` chunks instead):
 * - the plan as one `plan` block whose tasks are the plan items
 *   (https://docs.slack.dev/reference/block-kit/blocks/plan-block/);
 * - without a plan, each of the latest tool calls as a `task_card` block
 *   (https://docs.slack.dev/reference/block-kit/blocks/task-card-block/), a running subagent's
 *   latest calls as the card's `details`.
 * Slack refuses a `plan` and a `task_card` side by side in one message (third-party report, a GitLab
 * MR; UNCONFIRMED in Slack's docs), so with a plan the tool calls stay a mrkdwn section.
 */

/** Plan item status → task status. */
const PLAN_STATUS = { pending: 'pending', in_progress: 'in_progress', completed: 'complete' } as const;
/** Tool line state → task status: a failed or interrupted call is an `error`. */
const TOOL_STATUS: Readonly<Record<ToolLine['state'], SlackTaskStatus>> = { running: 'in_progress', finished: 'complete', orphan: 'complete', failed: 'error', interrupted: 'error' };

/** A tool line's markdown as plain text (a task title is plain text: code spans lose their backticks). */
const plainTitle = (text: string) => text.replace(/`([^`\n]*)`/g, '$1');

/** Plain text as a `rich_text` of one section per line (Slack refuses an empty text element). */
export function richText(lines: readonly string[]): SlackRichText {
  const shown = lines.filter((line) => line !== '');
  return { type: 'rich_text', elements: (shown.length > 0 ? shown : [' ']).map((line) => ({ type: 'rich_text_section', elements: [{ type: 'text', text: line }] })) };
}

/** The plan as a `plan` block, or undefined when there is none or it has more items than the block takes (the caller draws the mrkdwn checklist). */
export function planBlock(view: CardView, locale: Locale, limits: SlackLimits): SlackPlanBlock | undefined {
  const plan = view.plan;
  if (!plan || plan.items.length === 0 || plan.items.length > limits.maxPlanTasks) return undefined;
  return {
    type: 'plan',
    block_id: 'plan',
    title: oneLine(planHeading(plan, locale), limits.maxTaskTitleChars),
    tasks: plan.items.map((item, i) => ({ task_id: `plan_${i + 1}`, title: oneLine(item.text, limits.maxTaskTitleChars) || '…', status: PLAN_STATUS[item.status] })),
  };
}

/**
 * The latest tool calls (at most `limits.maxTaskCards` top-level entries) as `task_card` blocks:
 * the line's text as the title (it carries the state's words, the duration and the summary), its
 * state as the status, an open subagent's latest calls as `details`. Earlier calls are counted by
 * the caller (`olderCalls`).
 */
export function toolTaskCards(view: CardView, locale: Locale, limits: SlackLimits): { blocks: SlackTaskCardBlock[]; olderCalls: number } {
  const tree = toolTree(view.tools, { maxEntries: limits.maxTaskCards });
  const rows = toolTreeRows(tree, locale);
  const blocks: SlackTaskCardBlock[] = [];
  for (const entry of tree.entries) {
    const children = entry.subagent && entry.open ? rows.filter((row) => row.depth === 1 && (row.line === undefined ? false : row.line.parentCallId === entry.line.callId)) : [];
    const details = children.map((row) => oneLine(plainTitle(row.text), 300));
    blocks.push({
      type: 'task_card',
      block_id: `task_${blocks.length + 1}`,
      task_id: entry.line.callId,
      title: oneLine(plainTitle(entry.line.text), limits.maxTaskTitleChars) || entry.line.name,
      status: TOOL_STATUS[entry.line.state],
      ...(details.length > 0 ? { details: richText(details) } : {}),
    });
  }
  return { blocks, olderCalls: tree.olderCalls };
}

/** Whether a message's blocks keep Slack's rules for these blocks: no `plan` next to a `task_card`, at most one `table`. */
export function agentBlockProblems(blocks: readonly SlackBlock[]): string[] {
  const problems: string[] = [];
  const count = (type: SlackBlock['type']) => blocks.filter((block) => block.type === type).length;
  if (count('plan') > 0 && count('task_card') > 0) problems.push('plan and task_card blocks in one message');
  if (count('table') > 1) problems.push(`${count('table')} table blocks, at most 1`);
  return problems;
}
