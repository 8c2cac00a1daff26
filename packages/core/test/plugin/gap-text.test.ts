import { describe, expect, it } from 'vitest';
import { GapText } from '../../src/plugin/kit/gap-text.js';
import { neutraliseLinks } from '../../src/plugin/index.js';

/** A small deterministic generator (no Math.random: a failure must replay). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('GapText, the buffer neutraliseLinks edits in place', () => {
  it('reads, deletes and inserts like the same edits on a string, across its gap and as it grows, keeping lone surrogates', () => {
    const random = lcg(7);
    let expected = 'ab\uD800cd😀ef](gh)[ij]';
    const text = new GapText(expected);
    for (let step = 0; step < 2000; step++) {
      const at = Math.floor(random() * (expected.length + 1));
      if (random() < 0.5 && expected.length > 0) {
        const end = Math.min(expected.length, at + Math.floor(random() * 4));
        text.delete(at, end);
        expected = expected.slice(0, at) + expected.slice(end);
      } else {
        const piece = ['x', '\u200b', '](', '\uDC00', 'long piece of text '][Math.floor(random() * 5)]!;
        text.insert(at, piece);
        expected = expected.slice(0, at) + piece + expected.slice(at);
      }
      expect(text.length).toBe(expected.length);
      const probe = Math.floor(random() * (expected.length + 1));
      expect(text.charAt(probe)).toBe(expected.charAt(probe));
      expect(text.charCodeAt(probe)).toEqual(expected.charCodeAt(probe));
      expect(text.slice(probe, probe + 5)).toBe(expected.slice(probe, probe + 5));
      expect(text.indexOfPair(0x5d, 0x28, probe)).toBe(expected.indexOf('](', probe));
      expect(text.indexOfCode(0x29, probe)).toBe(expected.indexOf(')', probe));
    }
    expect(text.toString()).toBe(expected);
  });

  it('a text longer than one piece of its string conversion comes back whole', () => {
    const long = 'é'.repeat(20_000) + '\uD800' + 'z'.repeat(20_000);
    const text = new GapText(long);
    text.insert(30_000, '](');
    text.delete(10, 20);
    expect(text.toString()).toBe(`${long.slice(0, 10)}${long.slice(20, 30_000)}](${long.slice(30_000)}`);
  });
});

describe('neutraliseLinks on hostile text (edited in place)', () => {
  it('hundreds of forbidden links, nested labels and escapes: each link becomes its label until the 200th, then every `](` is broken', () => {
    const link = '[a\\]b [c](javascript:1) d](javascript:2)';
    expect(neutraliseLinks(link)).toBe('a\\]b c d');
    const many = `${'[x](javascript:y) '.repeat(250)}[z](javascript:w)`;
    const out = neutraliseLinks(many);
    expect(out.startsWith('x '.repeat(200))).toBe(true);
    expect(out).not.toMatch(/\]\(/);
    expect(out.split('\u200b').length - 1).toBeGreaterThanOrEqual(50);
    // Removing a link joins no new one: `[[x]](javascript:1)(javascript:2)` leaves no live `](`.
    expect(neutraliseLinks('[[x]](javascript:1)(javascript:2)')).not.toMatch(/\]\(javascript/);
    expect(neutraliseLinks('![img](data:x) ok [keep](https://example.com)')).toBe('img ok [keep](https://example.com)');
  });
});
