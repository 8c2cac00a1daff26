import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventParseError, parseEvent } from '../../src/index.js';

describe('parseEvent', () => {
  it('returns typed events', () => {
    expect(parseEvent({ type: 'tool.started', callId: 'c1', name: 'shell', args: '{}' })).toEqual({ type: 'tool.started', callId: 'c1', name: 'shell', args: '{}' });
  });

  it.each([
    [{ type: 'tool.started', callId: '', name: 'shell' }, 'tool.started.callId = ""'],
    [{ type: 'usage', inputTokens: -3 }, 'usage.inputTokens = -3'],
    [{ type: 'round.started' }, 'round.started.round = undefined (missing)'],
    [{ type: 'bogus' }, 'invalid agent event: type = "bogus" (not an event type; expected one of run.started, round.started,'],
    [{ type: 'tool.strated', callId: 'c1', name: 'shell' }, 'invalid agent event: type = "tool.strated" (not an event type; expected one of run.started, round.started, round.ended, thinking.delta, answer.delta, tool.started,'],
    [{ callId: 'c1' }, 'invalid agent event: type = undefined (missing) (every event needs a type; expected one of run.started'],
    [{ type: 7 }, 'invalid agent event: type = 7 (must be a string; expected one of run.started'],
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

  it('a pushed event with a misspelt type is refused naming `type`, its value and the accepted types; the card goes on', async () => {
    const { setup, settle } = await import('../helpers.js');
    const { cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'typo' });
    const result = card.push({ type: 'tool.strated', callId: 'c1', name: 'shell' });
    expect(result).toMatchObject({ accepted: false, reason: 'invalid' });
    const error = (result as { error: EventParseError }).error;
    expect(error.path).toEqual(['type']);
    expect(error.value).toBe('tool.strated');
    expect(error.message).toMatch(/^invalid agent event: type = "tool\.strated" \(not an event type; expected one of run\.started, .*\btool\.started\b.*\brun\.cancelled\)$/);
    card.complete('done');
    await settle();
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  });
});

describe('event time units', () => {
  afterEach(() => vi.useRealTimers());
  const ms = Date.UTC(2026, 10, 30, 12, 0, 0);
  it.each([
    ['seconds', Math.round(ms / 1000), 'multiply by 1000'],
    ['microseconds', ms * 1000, 'divide by 1000'],
    ['nanoseconds', ms * 1e6, 'divide by 1e6'],
  ])('refuses an `at` in %s, naming the field and the likely unit', (_unit, at, hint) => {
    expect(() => parseEvent({ type: 'run.started', at })).toThrow(EventParseError);
    expect(() => parseEvent({ type: 'run.started', at })).toThrow(new RegExp(`run\\.started\\.at = ${at} \\(must be epoch milliseconds.*${hint.replace(/[.*]/g, '\\$&')}`));
  });

  it('a card fed an `at` in nanoseconds keeps its other events and delivers its final', async () => {
    const { setup, settle } = await import('../helpers.js');
    const { channel, cards } = setup();
    const card = cards.open('memory');
    expect(card.start({ title: 'units' }).accepted).toBe(true);
    expect(card.push({ type: 'answer.delta', text: 'done', at: ms * 1e6 })).toMatchObject({ accepted: false, reason: 'invalid' });
    card.complete('done');
    await settle();
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.calls.at(-1)?.payload.answer).toBe('done');
  });
});
