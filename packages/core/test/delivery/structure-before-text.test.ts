import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { CHANGE_RANK } from '../../src/delivery/card-delivery-record.js';
import type { FlushGate, PreparedCall } from '../../src/delivery/schedule/flush-calls.js';
import { FlushPump } from '../../src/delivery/schedule/flush-pump.js';
import { FlushQueue } from '../../src/delivery/schedule/flush-queue.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const { structural, text, elapsed } = CHANGE_RANK;

describe('FlushQueue: streamed text never holds back structure', () => {
  it('a tool change right after a text call skips the per-card interval once; text and structure after structure wait it', () => {
    const queue = new FlushQueue(250, text);
    queue.request(text, 0);
    queue.start(0);
    queue.settle();
    queue.request(structural, 10);
    expect(queue.readyAt()).toBe(0); // not 250: the text call does not hold the tool change back
    queue.start(10);
    queue.settle();
    queue.request(structural, 20);
    expect(queue.readyAt()).toBe(260); // two calls in one interval at most
    queue.start(260);
    queue.settle();
    queue.request(text, 270);
    expect(queue.readyAt()).toBe(510);
  });

  it('text after text waits the per-card interval; a backoff holds structure too', () => {
    const queue = new FlushQueue(250, text);
    queue.request(text, 0);
    queue.start(0);
    queue.settle();
    queue.request(text, 10);
    expect(queue.readyAt()).toBe(250);
    queue.request(structural, 20);
    queue.notBeforeTime(1000);
    expect(queue.readyAt()).toBe(1000);
  });

  it('a flush taken back (no slot yet) keeps the text start it followed, so the tool change still skips the interval', () => {
    const queue = new FlushQueue(250, text);
    queue.request(text, 0);
    queue.start(0);
    queue.settle();
    queue.request(structural, 10);
    queue.start(10);
    queue.unstart();
    expect(queue.readyAt()).toBe(0);
  });

  it('a pending request is as old as its most urgent change: a tool change after a tick counts from the tool change', () => {
    const queue = new FlushQueue(250, text);
    queue.request(elapsed, 0);
    queue.request(structural, 100);
    expect(queue.pendingSince).toBe(100);
    queue.request(structural, 200);
    expect(queue.pendingSince).toBe(100);
    queue.request(elapsed, 300);
    expect(queue.pendingSince).toBe(100);
  });
});

/** A budget of one call per `spacingMs` for every key, on the fake clock. */
function spacedGate(spacingMs: number): FlushGate {
  let next = Date.now();
  return {
    nextDeparture: () => Math.max(Date.now(), next),
    reserve: () => {
      const at = Math.max(Date.now(), next);
      next = at + spacingMs;
      return { departure: at, arrival: at };
    },
  };
}

describe('FlushPump: under a saturated budget, tool changes go oldest first', () => {
  it('a card with a tick pending before another card\'s tool change does not jump ahead of it with a later tool change', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const sent: string[] = [];
    const items = new Map([['first', { flushQueue: new FlushQueue(250, text) }], ['ticking', { flushQueue: new FlushQueue(250, text) }], ['tooled', { flushQueue: new FlushQueue(250, text) }]]);
    const names = new Map([...items].map(([name, item]) => [item, name]));
    const pump = new FlushPump(spacedGate(1000), { now: () => Date.now() }, (item): PreparedCall => ({ keys: [], send: async () => void sent.push(names.get(item)!) }));
    pump.request(items.get('first')!, structural);
    await settle(10);
    pump.request(items.get('ticking')!, elapsed); // a 3 s tick, nothing new
    await settle(10);
    pump.request(items.get('tooled')!, structural); // a tool started
    await settle(10);
    pump.request(items.get('ticking')!, structural); // a tool started, later
    await settle(3000);
    expect(sent).toEqual(['first', 'tooled', 'ticking']);
  });

  it('no card starves: whatever the requests, once they stop every card is flushed within one slot per card', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ card: fc.nat(7), rank: fc.constantFrom(structural, text, elapsed), gapMs: fc.nat(300) }), { minLength: 1, maxLength: 80 }), async (requests) => {
        const cards = Array.from({ length: 8 }, () => ({ flushQueue: new FlushQueue(250, text) }));
        const lastRequest = new Map<object, number>();
        const lastSent = new Map<object, number>();
        const pump = new FlushPump(spacedGate(100), { now: () => Date.now() }, (item): PreparedCall => ({ keys: [], send: async () => void lastSent.set(item, Date.now()) }));
        for (const { card, rank, gapMs } of requests) {
          await vi.advanceTimersByTimeAsync(gapMs);
          lastRequest.set(cards[card]!, Date.now());
          pump.request(cards[card]!, rank);
        }
        const stopped = Date.now();
        // Each card at most one call before its last request's flush (in flight), plus one slot per card and the per-card interval.
        await vi.advanceTimersByTimeAsync(8 * 2 * 100 + 250);
        for (const [card, at] of lastRequest) expect(lastSent.get(card) ?? -1, `card requested at ${at - stopped} ms`).toBeGreaterThanOrEqual(at);
        pump.dispose();
      }),
      { numRuns: 30 },
    );
  });
});

describe('cards: a tool start goes out ahead of the per-card interval its text started', () => {
  it('the tool started 10 ms after streamed text reaches the chat before the interval ends', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ latencyMs: 5 });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger });
    const card = cards.open('memory');
    card.push({ type: 'run.started', title: 'run' });
    await settle(1000);
    card.push({ type: 'answer.delta', text: 'Looking at the logs. ' });
    const textAt = Date.now();
    await settle(10);
    card.push({ type: 'tool.started', callId: 'c1', name: 'shell', args: { command: 'ls' } });
    await settle(1000);
    const toolShown = channel.calls.find((call) => call.op === 'update' && call.payload.tools.length > 0);
    expect(toolShown).toBeDefined();
    // The memory channel's per-card interval is 250 ms; the tool went out right after the text's call.
    expect(toolShown!.at - textAt).toBeLessThan(250);
    const updates = channel.calls.filter((call) => call.op === 'update');
    expect(updates[0]!.payload.answer).toContain('Looking at the logs.');
    const closed = cards.shutdown();
    await settle(10_000);
    await closed;
  });
});

describe('cards: tool changes skipping the interval never exceed a window', () => {
  it('any mix of streamed text and tool changes on three cards stays within the channel\'s 5 calls a second', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ card: fc.nat(2), tool: fc.boolean(), gapMs: fc.nat(120) }), { minLength: 5, maxLength: 60 }), async (steps) => {
        const channel = memoryChannel();
        const cards = createProgressCards({ channels: [channel], logger: silentLogger });
        const runs = [0, 1, 2].map((i) => cards.open('memory', undefined, { title: `run ${i}` }));
        for (const run of runs) run.push({ type: 'run.started' });
        let call = 0;
        for (const { card, tool, gapMs } of steps) {
          await vi.advanceTimersByTimeAsync(gapMs);
          const id = `c${call++}`;
          runs[card]!.push(tool ? { type: 'tool.started', callId: id, name: 'shell' } : { type: 'answer.delta', text: `${id} ` });
        }
        for (const run of runs) run.push({ type: 'run.completed' });
        const closed = cards.shutdown();
        await vi.advanceTimersByTimeAsync(60_000);
        await closed;
        const arrivals = channel.calls.filter((c) => c.failure === undefined).map((c) => c.at);
        for (let first = 0, last = 0; last < arrivals.length; last++) {
          while (arrivals[last]! - arrivals[first]! >= 1000) first++;
          expect(last - first + 1).toBeLessThanOrEqual(5);
        }
      }),
      { numRuns: 20 },
    );
  });
});
