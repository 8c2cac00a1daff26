import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, silentLogger, type FinalDelivery } from '../../src/index.js';
import { faultCase, fakeTime, loadFaultCases, playEvents } from '../../src/testing/index.js';
import { settle } from '../helpers.js';
import { scriptedPlatform } from './scripted-platform.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

describe('F17 an update that timed out is applied late by the platform', () => {
  const c = faultCase(cases, 'F17');
  it('the final is shown last, and finalDelivery is ok only once the late update can no longer land after it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // Update #1 times out on the client (1000 ms) and is applied by the platform 2000 ms after that.
    const platform = scriptedPlatform({ update: [{ kind: 'late', lateMs: 2000 }] }, { latencyMs: 0 });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {}, retry: { lateApplyWindowMs: 5000 } });
    const card = cards.open('memory');
    let reported: FinalDelivery | undefined;
    void card.finalDelivery.then((result) => (reported = result));
    await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
    await settle(2500);
    // The late update has landed by now (over the final): the report waits for the re-asserted final.
    expect(platform.lateCalls()).toBe(0);
    await settle(30_000);
    expect(reported).toMatchObject({ ok: true, status: 'completed' });
    expect(platform.channel.messages.size).toBe(1);
    expect(platform.channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'FINAL-ANSWER' });
  });
});
