import { describe, expect, it } from 'vitest';
import { EventParseError, parseEvent } from '../../src/index.js';

describe('parseEvent', () => {
  it('returns typed events', () => {
    expect(parseEvent({ type: 'tool.started', callId: 'c1', name: 'shell', args: '{}' })).toEqual({ type: 'tool.started', callId: 'c1', name: 'shell', args: '{}' });
  });

  it.each([
    [{ type: 'tool.started', callId: '', name: 'shell' }, 'tool.started.callId = ""'],
    [{ type: 'usage', inputTokens: -3 }, 'usage.inputTokens = -3'],
    [{ type: 'round.started' }, 'round.started.round = undefined (missing)'],
    [{ type: 'bogus' }, 'bogus.type = "bogus"'],
    ['nope', '(event) = "nope"'],
  ])('names the path and value of bad input %#', (input, text) => {
    let caught: unknown;
    try {
      parseEvent(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EventParseError);
    expect((caught as Error).message).toContain(text);
  });
});
