import { AGENT_BLOCK_TYPES, agentBlockProblem, agentMessageProblem } from './agent-blocks.js';
import type { SlackLimits } from './limits.js';

/** Why a `blocks` value breaks a Block Kit rule, or undefined when it is fine. */
export function blockProblem(blocks: unknown, limits: SlackLimits): string | undefined {
  if (!Array.isArray(blocks)) return 'blocks must be an array';
  if (blocks.length > limits.maxBlocks) return `${blocks.length} blocks, at most ${limits.maxBlocks}`;
  for (const [i, block] of blocks.entries()) {
    const b = block as { type?: unknown; text?: { type?: unknown; text?: unknown }; elements?: unknown };
    if (typeof b !== 'object' || b === null || typeof b.type !== 'string') return `blocks[${i}] has no type`;
    if (b.type === 'header') {
      if (b.text?.type !== 'plain_text' || typeof b.text.text !== 'string') return `blocks[${i}] header needs plain_text`;
      if ([...b.text.text].length > limits.maxHeaderChars) return `blocks[${i}] header over ${limits.maxHeaderChars} characters`;
    } else if (b.type === 'section') {
      if (typeof b.text?.text !== 'string' || b.text.text === '') return `blocks[${i}] section needs text`;
      if ([...b.text.text].length > limits.maxSectionTextChars) return `blocks[${i}] section text over ${limits.maxSectionTextChars} characters`;
    } else if (b.type === 'context') {
      if (!Array.isArray(b.elements) || b.elements.length === 0) return `blocks[${i}] context needs elements`;
      if (b.elements.length > limits.maxContextElements) return `blocks[${i}] context over ${limits.maxContextElements} elements`;
    } else if (b.type === 'actions') {
      const problem = actionsProblem(b.elements);
      if (problem) return `blocks[${i}] ${problem}`;
    } else if (b.type === 'input') {
      const input = b as { label?: { type?: unknown }; element?: { type?: unknown; action_id?: unknown } };
      if (input.label?.type !== 'plain_text' || typeof input.element?.type !== 'string') return `blocks[${i}] input needs a plain_text label and an element`;
    } else if (b.type === 'markdown') {
      const text = (b as { text?: unknown }).text;
      if (typeof text !== 'string' || text === '') return `blocks[${i}] markdown needs text`;
      if ([...text].length > limits.maxMarkdownChars) return `blocks[${i}] markdown text over ${limits.maxMarkdownChars} characters`;
    } else if (AGENT_BLOCK_TYPES.has(b.type)) {
      const problem = agentBlockProblem(b as Record<string, unknown>, limits);
      if (problem) return `blocks[${i}] ${problem}`;
    } else if (b.type !== 'divider') {
      return `blocks[${i}] type ${b.type} is not emulated`;
    }
  }
  return agentMessageProblem(blocks);
}

/**
 * Why an `actions` block's elements break the documented limits (1 to 25 elements; a button's text
 * at most 75 characters, `action_id` at most 255, `value` at most 2000;
 * https://api.slack.com/reference/block-kit/blocks#actions), or undefined.
 */
function actionsProblem(elements: unknown): string | undefined {
  if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) return 'actions needs 1 to 25 elements';
  for (const [j, e] of (elements as { type?: unknown; text?: { text?: unknown }; action_id?: unknown; value?: unknown }[]).entries()) {
    if (e.type !== 'button') continue;
    if (typeof e.text?.text !== 'string' || [...e.text.text].length > 75) return `actions element ${j}: button text must be 1 to 75 characters`;
    if (typeof e.action_id === 'string' && e.action_id.length > 255) return `actions element ${j}: action_id over 255 characters`;
    if (typeof e.value === 'string' && e.value.length > 2000) return `actions element ${j}: value over 2000 characters`;
  }
  return undefined;
}
