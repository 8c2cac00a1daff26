import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointLength } from '@progresscard/core/plugin';
import { splitMarkdown } from '../../src/render/guards.js';

const line = fc.oneof(fc.constantFrom('```', '```ts', '', '| a | b |', '- item', '😀😀 emoji'), fc.string({ unit: 'grapheme', maxLength: 120 }));
const markdown = fc.array(line, { maxLength: 60 }).map((lines) => lines.join('\n'));

describe('splitMarkdown', () => {
  it('keeps every part within the limit, and stopping after k parts gives the first k parts and counts the rest', () => {
    fc.assert(
      fc.property(markdown, fc.integer({ min: 20, max: 300 }), fc.integer({ min: 0, max: 5 }), (text, max, k) => {
        const all = splitMarkdown(text, max);
        expect(all.leftOut).toBe(0);
        for (const part of all.parts) expect(codePointLength(part)).toBeLessThanOrEqual(max);
        const some = splitMarkdown(text, max, k);
        expect(some.parts).toEqual(all.parts.slice(0, k));
        expect(some.leftOut > 0).toBe(all.parts.length > k);
      }),
    );
  });

  it('loses no text outside code fences: the parts joined hold every word', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z😀]{1,40}$/u), { maxLength: 200 }), fc.integer({ min: 50, max: 400 }), (words, max) => {
        const parts = splitMarkdown(words.join(' '), max).parts;
        expect(parts.join(' ').split(/\s+/).join('')).toBe(words.join(''));
      }),
    );
  });

  it('counts the code points left after the kept parts', () => {
    const text = `${'a'.repeat(99)}\n`.repeat(50); // 50 lines of 100 code points
    const { parts, leftOut } = splitMarkdown(text, 250, 3);
    expect(parts).toHaveLength(3);
    const kept = parts.reduce((sum, part) => sum + codePointLength(part), 0);
    expect(kept + leftOut).toBeGreaterThanOrEqual(codePointLength(text.trim()) - 3);
    expect(kept + leftOut).toBeLessThanOrEqual(codePointLength(text));
  });
});
