import type { SlackMessage } from './payload.js';
import { SLACK_LIMITS, type SlackLimits } from './limits.js';
import { codePointLength } from '@progresscard/core/plugin';
import { agentBlockProblems } from './agent-blocks.js';

/** Why Slack would refuse `message` (`invalid_blocks`, `msg_too_long`), empty when it would not. */
export function messageProblems(message: SlackMessage, limits: SlackLimits): string[] {
  const problems: string[] = [];
  if (codePointLength(message.text) > limits.maxTextChars) problems.push(`text over ${limits.maxTextChars} characters`);
  const blocks = message.blocks ?? [];
  if (blocks.length > limits.maxBlocks) problems.push(`${blocks.length} blocks, at most ${limits.maxBlocks}`);
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'header' && codePointLength(block.text.text) > limits.maxHeaderChars) problems.push(`blocks[${i}] header over ${limits.maxHeaderChars} characters`);
    if (block.type === 'section' && codePointLength(block.text.text) > limits.maxSectionChars) problems.push(`blocks[${i}] section over ${limits.maxSectionChars} characters`);
    if (block.type === 'section' && block.text.text === '') problems.push(`blocks[${i}] section is empty`);
    if (block.type === 'context' && block.elements.length > limits.maxContextElements) problems.push(`blocks[${i}] context over ${limits.maxContextElements} elements`);
    if (block.type === 'plan' && block.tasks.length > limits.maxPlanTasks) problems.push(`blocks[${i}] plan over ${limits.maxPlanTasks} tasks`);
    if (block.type === 'table' && block.rows.length > limits.maxTableRows) problems.push(`blocks[${i}] table over ${limits.maxTableRows} rows`);
    if (block.type === 'table' && block.rows.some((row) => row.length > limits.maxTableColumns)) problems.push(`blocks[${i}] table row over ${limits.maxTableColumns} cells`);
  }
  problems.push(...agentBlockProblems(blocks));
  return problems;
}

/**
 * Why Slack would refuse `message` under its documented limits (50 blocks, 3000 characters a section
 * text, 40 000 a message text; https://api.slack.com/reference/block-kit/blocks), empty when it
 * would not. For tooling such as `progresscard doctor`.
 */
export function slackMessageProblems(message: SlackMessage): string[] {
  return messageProblems(message, SLACK_LIMITS);
}
