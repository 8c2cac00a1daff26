import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, parseEvent, silentLogger } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

const throwing = () => {
  throw new Error('boom');
};
/** A value every read of which throws. */
const hostile = () => new Proxy({}, { get: throwing, has: throwing, ownKeys: throwing, getOwnPropertyDescriptor: throwing, getPrototypeOf: throwing });

describe('an event holding a value that throws when read', () => {
  it('tool-call args that cannot be read are shown as unreadable, the same as args whose toJSON throws', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ overrides: { perCardIntervalMs: 0 } });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    const card = cards.open('memory', undefined, { locale: 'en', verbosity: 'detailed' });
    card.start({ title: 'hostile args' });
    expect(card.push({ type: 'tool.started', callId: 'proxy', name: 'shell', args: hostile() })).toEqual({ accepted: true });
    expect(card.push({ type: 'tool.started', callId: 'tojson', name: 'shell', args: { toJSON: throwing } })).toEqual({ accepted: true });
    const tools = card.view().tools.filter((tool) => tool.callId === 'proxy' || tool.callId === 'tojson');
    expect(tools.map((tool) => tool.detail)).toEqual(['"[unreadable]"', '"[unreadable]"']);
    card.complete('done');
    await vi.advanceTimersByTimeAsync(5000);
    expect((await card.finalDelivery).ok).toBe(true);
  });

  it('another unreadable field is refused naming it, and push() does not throw', () => {
    const cards = createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    const getterThrows = { get type() { return throwing(); } };
    const result = card.push(getterThrows);
    expect(result.accepted).toBe(false);
    expect(result.accepted === false && result.reason === 'invalid' && result.error.message).toBe('invalid agent event: type = [unreadable] (reading it threw: boom)');
    expect(() => parseEvent(hostile())).toThrow('invalid agent event: (event) = [unreadable] (reading it threw: boom)');
  });
});
