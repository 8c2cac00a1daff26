import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { ArrivalDelayEstimate } from '../../src/delivery/rate-limits/arrival-delay.js';
import type { BudgetedCall } from '../../src/plugin/contract.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** A memory channel whose sends and updates draw from separate route budgets of 2 calls/s each. */
function twoRouteChannel() {
  const windows = [{ limit: 2, intervalMs: 1000 }];
  return Object.assign(memoryChannel({ latencyMs: 20 }), {
    budgetKeys: (call: BudgetedCall) => [{ key: `route:${call.kind}`, windows }],
  });
}

describe('routes with separate budgets', () => {
  it('a live card updates at once while older new cards queue for the full send route', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = twoRouteChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger });
    const live = cards.open('memory');
    live.start({ title: 'live' });
    await settle(2000);
    expect(channel.calls).toHaveLength(1);
    // Ten new cards ask for their first send: at 2/s the send route is busy for about five seconds.
    const waiting = Array.from({ length: 10 }, (_, i) => cards.open('memory', undefined, { title: `new ${i}` }));
    for (const card of waiting) card.start({ title: card.view().title });
    await settle(10);
    const toolAt = Date.now();
    live.toolStarted('c1', 'shell', { command: 'ls' });
    await settle(600);
    const update = channel.calls.find((call) => call.op === 'update');
    expect(update?.payload.tools.join(' ')).toContain('ls');
    expect(update!.at - toolAt).toBeLessThan(300);
    // The sends go on at their own pace meanwhile.
    expect(channel.calls.filter((call) => call.op === 'send').length).toBeLessThan(11);
    await settle(10_000);
    expect(channel.calls.filter((call) => call.op === 'send')).toHaveLength(11);
  });

  it('each route is used at its paced rate while cards wait for both', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = twoRouteChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger });
    const live = Array.from({ length: 10 }, (_, i) => cards.open('memory', undefined, { title: `live ${i}` }));
    for (const card of live) card.start();
    await settle(10_000);
    const t0 = Date.now();
    const fresh = Array.from({ length: 10 }, (_, i) => cards.open('memory', undefined, { title: `fresh ${i}` }));
    for (const card of fresh) card.start();
    await settle(5);
    for (const card of live) card.toolStarted('c1', 'shell', { command: 'make' });
    await settle(2900);
    const inWindow = channel.calls.filter((call) => call.at >= t0);
    // About 3 s of two routes at 2/s (minus the jitter margins): both routes busy, not one after the other.
    expect(inWindow.filter((call) => call.op === 'send').length).toBeGreaterThanOrEqual(5);
    expect(inWindow.filter((call) => call.op === 'update').length).toBeGreaterThanOrEqual(5);
  });
});

describe('a lane waiting for its cards\' own limits', () => {
  it('lets a final whose own limit has room go at once', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = Object.assign(memoryChannel({ latencyMs: 20 }), {
      budgetKeys: (call: BudgetedCall) => [
        { key: `route:${call.kind}`, windows: [{ limit: 50, intervalMs: 1000 }] },
        { key: call.kind === 'update' ? `message:${call.message!.id}` : 'chat', windows: [{ limit: 1, intervalMs: 1000 }] },
      ],
    });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger });
    const busy = Array.from({ length: 3 }, (_, i) => cards.open('memory', undefined, { title: `busy ${i}` }));
    const finishing = cards.open('memory', undefined, { title: 'finishing' });
    for (const card of [...busy, finishing]) card.start();
    await settle(10_000);
    for (const card of busy) card.toolStarted('c1', 'shell', { command: 'make' });
    await settle(300);
    // Their next updates wait about a second for their messages' 1/s limit.
    for (const card of busy) card.toolFinished('c1', 'ok');
    await settle(10);
    const completedAt = Date.now();
    finishing.complete('done');
    await settle(200);
    const final = channel.calls.find((call) => call.payload.title === 'finishing' && call.payload.status === 'completed');
    expect(final && final.at - completedAt).toBeLessThan(100);
  });
});

describe('a budget that sends and updates share', () => {
  it('a new card\'s first message goes ahead of running cards\' older tool changes; a final ahead of both', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // Sends and updates each have their API key, and both draw from one shared key at 2 calls/s (DingTalk's streaming API).
    const windows = [{ limit: 2, intervalMs: 1000 }];
    const channel = Object.assign(memoryChannel({ latencyMs: 20 }), {
      budgetKeys: (call: BudgetedCall) => [{ key: `route:${call.kind}`, windows: [{ limit: 50, intervalMs: 1000 }] }, { key: 'shared', windows }],
    });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger });
    const running = Array.from({ length: 6 }, (_, i) => cards.open('memory', undefined, { title: `running ${i}` }));
    for (const card of running) card.start();
    await settle(10_000);
    // Six tool changes wait for the shared key (three seconds of it) before the new card and the final come.
    for (const card of running) card.toolStarted('c1', 'shell', { command: 'make' });
    await settle(10);
    const fresh = cards.open('memory', undefined, { title: 'fresh' });
    fresh.start();
    running[5]!.complete('done');
    await settle(10_000);
    const order = channel.calls.filter((call) => call.at > 1_700_000_010_000).map((call) => `${call.op} ${call.payload.title}${call.payload.status === 'completed' ? ' final' : ''}`);
    // At most one tool change had its slot before the new card asked (the first slot is free at once).
    const firstThree = order.slice(0, 3);
    expect(firstThree).toContain('send fresh');
    expect(firstThree).toContain('update running 5 final');
    expect(order.indexOf('update running 5 final')).toBeLessThan(order.indexOf('send fresh'));
    // The tool changes follow (their cards' ticks after them).
    for (let i = 0; i < 5; i++) expect(order.indexOf(`update running ${i}`)).toBeGreaterThan(-1);
  });
});

describe('ArrivalDelayEstimate', () => {
  it('holds still under round-trip jitter and follows a lasting change', () => {
    const estimate = new ArrivalDelayEstimate();
    expect(estimate.ms).toBe(0);
    estimate.observe(100);
    expect(estimate.ms).toBe(50);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      estimate.observe(i % 2 === 0 ? 80 : 120);
      seen.add(estimate.ms);
    }
    expect([...seen]).toEqual([50]);
    for (let i = 0; i < 60; i++) estimate.observe(300);
    expect(estimate.ms).toBeGreaterThanOrEqual(140);
  });
});
