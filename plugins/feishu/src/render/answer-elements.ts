import type { FeishuElement } from './payload.js';
import { markdown } from './elements.js';
import { fenceMarker, splitBlocks } from './markdown/index.js';

/**
 * Longest markdown component the answer uses, in characters. Peers report very long markdown
 * components silently losing their tail on Feishu clients, while a card may hold 200 components
 * (https://open.feishu.cn/document/feishu-cards/card-json-v2-structure), so a long answer is spread
 * over several components, split at block boundaries.
 */
const MAX_ANSWER_ELEMENT_CHARS = 4000;

/** A fenced block longer than `max`, cut into fenced pieces (each closed and reopened with its opener). */
function splitFence(text: string, max: number): string[] {
  const lines = text.split('\n');
  const opener = lines[0]!;
  const marker = fenceMarker(opener);
  const closed = lines.length > 1 && lines.at(-1)!.trim().startsWith(marker[0]!) && lines.at(-1)!.trim().length >= marker.length;
  const body = lines.slice(1, closed ? -1 : undefined);
  const pieces: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of body) {
    if (current.length > 0 && size + line.length + 1 > max - opener.length - marker.length - 2) {
      pieces.push([opener, ...current, marker].join('\n'));
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  pieces.push([opener, ...current, marker].join('\n'));
  return pieces;
}

/**
 * Splits markdown at block boundaries (blank lines outside code, whole fenced blocks) into chunks
 * of at most `max` characters where the blocks allow: a single paragraph or table longer than `max`
 * stays whole, a longer fenced block is cut between lines and closed / reopened.
 */
export function splitAtBlocks(text: string, max: number = MAX_ANSWER_ELEMENT_CHARS): string[] {
  if (text.length <= max) return [text];
  const units: string[] = [];
  for (const block of splitBlocks(text)) {
    if (block.kind === 'fence') units.push(...(block.text.length > max ? splitFence(block.text, max) : [block.text]));
    else units.push(...block.text.split(/\n[ \t]*\n/).filter((unit) => unit.trim() !== ''));
  }
  const chunks: string[] = [];
  let current = '';
  for (const unit of units) {
    if (current !== '' && current.length + 2 + unit.length > max) {
      chunks.push(current);
      current = '';
    }
    current = current === '' ? unit : `${current}\n\n${unit}`;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

/** The answer as markdown components `answer`, `answer_2`, … (see {@link splitAtBlocks}). */
export function answerElements(answer: string): FeishuElement[] {
  return splitAtBlocks(answer).map((chunk, index) => markdown(index === 0 ? 'answer' : `answer_${index + 1}`, chunk));
}
