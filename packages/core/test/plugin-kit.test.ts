import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChannelConfigError, memoryChannel } from '../src/index.js';
import { codePointLength, cut, oneLine, parseTimingOverrides, statusLabel } from '../src/plugin/index.js';

const isLoneSurrogate = (text: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

describe('cut and oneLine', () => {
  it('leaves text that fits alone and marks a cut with …', () => {
    expect(cut('short', 10)).toBe('short');
    expect(cut('abcdefghij', 5)).toBe('abcd…');
    expect(cut('abcdef', 4, '...')).toBe('a...');
  });

  it('never splits a surrogate pair: emoji count as one character', () => {
    expect(cut('😀😀😀😀', 4)).toBe('😀😀😀😀');
    expect(cut('😀😀😀😀😀', 4)).toBe('😀😀😀…');
    expect(cut('a😀b', 2)).toBe('a…');
  });

  it('never splits an emoji ZWJ sequence or a flag', () => {
    const family = '👨‍👩‍👧‍👦';
    expect(cut(`ab${family}cdef`, 5)).toBe('ab…');
    expect(cut('x🇨🇳🇨🇳', 3)).toBe('x…');
  });

  it('for any text: at most max code points, no lone surrogate, a prefix of the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (text, max) => {
        const result = cut(text, max);
        expect(codePointLength(result)).toBeLessThanOrEqual(Math.max(max, 1));
        expect(isLoneSurrogate(result)).toBe(false);
        expect(text.startsWith(result.endsWith('…') && result !== text ? result.slice(0, -1) : result)).toBe(true);
      }),
    );
  });

  it('oneLine folds whitespace and newlines before cutting', () => {
    expect(oneLine('  npm\n  test   --watch ', 100)).toBe('npm test --watch');
    expect(oneLine('a\n\nbcdef', 4)).toBe('a b…');
  });
});

describe('status vocabulary', () => {
  it('has one word per status and locale', () => {
    expect(statusLabel('completed', 'zh-CN')).toBe('已完成');
    expect(statusLabel('running', 'en')).toBe('Running');
  });
});

describe('timing overrides', () => {
  it('keeps the set fields only', () => {
    expect(parseTimingOverrides('x', { tickMs: 1000, appId: 'a', debounceMs: undefined })).toEqual({ tickMs: 1000 });
    expect(parseTimingOverrides('x', undefined)).toEqual({});
  });

  it.each([
    [{ tickMs: 0 }, 'memory tickMs = 0 ('],
    [{ tickMs: 1.5 }, 'memory tickMs = 1.5 ('],
    [{ perCardIntervalMs: -1 }, 'memory perCardIntervalMs = -1 ('],
    [{ budget: [] }, 'memory budget = [] ('],
    [{ budget: [{ limit: 1, intervalMs: 0 }] }, 'memory budget.0.intervalMs = 0 ('],
  ])('one bad value in config throws naming channel, field and value: %o', (overrides, message) => {
    expect(() => memoryChannel({ overrides })).toThrow(ChannelConfigError);
    expect(() => memoryChannel({ overrides })).toThrow(message);
  });
});
