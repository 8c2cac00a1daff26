import { describe, expect, it } from 'vitest';
import { CardState } from '../../src/card/card-state.js';

/**
 * F12's kind (a lone UTF-16 surrogate reaching the platform) for the texts that end a run: the
 * final answer of `run.completed`, the error of `run.failed` and the reason of `run.cancelled`
 * come in whole, not as deltas, and must be made well-formed too (Telegram showed the lone half).
 */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('the texts that end a run carry no lone surrogate', () => {
  it('run.completed answer', () => {
    const state = new CardState({ startedAt: 0 });
    state.apply({ type: 'run.completed', answer: 'done \ud83d end' }, 1);
    expect(state.view(2).answer).toBe('done \ufffd end');
  });

  it('run.failed error and run.cancelled reason', () => {
    const failed = new CardState({ startedAt: 0 });
    failed.apply({ type: 'run.failed', error: 'bad \udc00 end' }, 1);
    expect(JSON.stringify(failed.view(2))).not.toMatch(LONE);
    expect(JSON.stringify(failed.view(2))).toContain('bad \ufffd end');
    const cancelled = new CardState({ startedAt: 0 });
    cancelled.apply({ type: 'run.cancelled', reason: 'stop \ud83d' }, 1);
    expect(JSON.stringify(cancelled.view(2))).toContain('stop \ufffd');
  });
});
