import { oneLine, planHeading, type CardRenderer, type CardView, type Locale, type StreamContent } from '@progresscard/core/plugin';
import type { AnyChunk } from '@slack/web-api';
import type { SlackBlock, SlackMessage } from './payload.js';
import { SLACK_TEXTS } from './texts.js';

/** Longest task title sent (third-party reports of a cap near 256 characters; UNCONFIRMED in Slack's docs). */
const MAX_TASK_TITLE_CHARS = 250;
/** Plan item status → Slack task status (`completed` is refused, https://docs.slack.dev/reference/block-kit/blocks/task-card-block/). */
const PLAN_STATUS = { pending: 'pending', in_progress: 'in_progress', completed: 'complete' } as const;

/**
 * A stream call's content as Slack chunks (`@slack/types` chunk.d.ts,
 * https://docs.slack.dev/reference/methods/chat.appendStream "Using the chunks parameter"): the
 * plan as a `plan_update` (its heading) with its items as `task_update`s (`plan_1`, `plan_2`…), tool
 * calls as `task_update`s under their call ids, then the answer text as `markdown_text`.
 */
export function streamChunks(content: StreamContent, locale: Locale): AnyChunk[] {
  const chunks: AnyChunk[] = [];
  if (content.plan) {
    chunks.push({ type: 'plan_update', title: oneLine(planHeading(content.plan, locale), MAX_TASK_TITLE_CHARS) });
    for (const [i, item] of content.plan.items.entries()) {
      chunks.push({ type: 'task_update', id: `plan_${i + 1}`, title: oneLine(item.text, MAX_TASK_TITLE_CHARS), status: PLAN_STATUS[item.status] });
    }
  }
  for (const task of content.tasks ?? []) {
    chunks.push({ type: 'task_update', id: task.id, title: oneLine(task.title, MAX_TASK_TITLE_CHARS), status: task.status, ...(task.output ? { output: oneLine(task.output, 1000) } : {}) });
  }
  if (content.text !== '') chunks.push({ type: 'markdown_text', text: content.text });
  return chunks;
}

/** `block_id`s of the card's blocks that close a stream: the error, decisions, controls, changed files, footer. */
const CLOSING_BLOCKS = new Set(['error', 'pc_decided', 'pc_controls', 'pc_reply', 'changed_files', 'footer']);

/**
 * The blocks below a stream's text when it stops (chat.stopStream `blocks`, "rendered at the bottom
 * of the finalized message"): for the final, the card's closing blocks (error, decisions, controls,
 * changed files, footer) as the renderer draws them; for a roll-over, a note that it continues below.
 */
export function streamStopBlocks(renderer: CardRenderer<SlackMessage>, view: CardView, reason: 'final' | 'roll-over', locale: Locale): SlackBlock[] {
  if (reason === 'roll-over') return [{ type: 'context', block_id: 'continued', elements: [{ type: 'mrkdwn', text: `_${SLACK_TEXTS[locale].continuesBelow}_` }] }];
  const blocks = renderer.render(view).blocks ?? [];
  // Ids are `name.digest` (see `freshBlockIds`), the controls' `pc_…`.
  return blocks.filter((block) => 'block_id' in block && block.block_id !== undefined && (CLOSING_BLOCKS.has(block.block_id.split('.')[0]!) || block.block_id.startsWith('pc_answer')));
}
