import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointLength } from '@progresscard/core/plugin';
import { splitSections } from '../src/render/mrkdwn.js';

const line = fc.oneof(fc.constantFrom('```', '', '• item', '😀😀 emoji'), fc.string({ unit: 'grapheme', maxLength: 400 }));
const mrkdwn = fc.array(line, { maxLength: 60 }).map((lines) => lines.join('\n'));

describe('splitSections', () => {
  it('keeps every section within the limit, and stopping after k sections gives the first k and says when something is left out', () => {
    fc.assert(
      fc.property(mrkdwn, fc.integer({ min: 40, max: 500 }), fc.integer({ min: 0, max: 5 }), (text, max, k) => {
        const all = splitSections(text, max);
        expect(all.leftOut).toBe(0);
        for (const section of all.sections) expect(codePointLength(section)).toBeLessThanOrEqual(max);
        const some = splitSections(text, max, k);
        expect(some.sections).toEqual(all.sections.slice(0, k));
        // Nothing is left out silently (an empty code block left over may count as left out).
        if (all.sections.length > k) expect(some.leftOut).toBeGreaterThan(0);
      }),
    );
  });

  it('an empty code block makes no section, whether or not the split stops early (fast-check counterexample)', () => {
    expect(splitSections('```\n```', 100)).toEqual({ sections: [], leftOut: 0 });
    expect(splitSections('```\n```', 100, 0)).toEqual({ sections: [], leftOut: 0 });
  });

  it('cuts one very long line into sections that hold all of it', () => {
    const text = 'x'.repeat(10_000);
    const { sections, leftOut } = splitSections(text, 1000);
    expect(leftOut).toBe(0);
    expect(sections.join('')).toBe(text);
    const first = splitSections(text, 1000, 2);
    expect(first.leftOut).toBe(10_000 - first.sections.join('').length);
  });
});
