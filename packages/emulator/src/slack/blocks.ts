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
    } else if (b.type !== 'divider') {
      return `blocks[${i}] type ${b.type} is not emulated`;
    }
  }
  return undefined;
}
