import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, isTerminalStatus, silentLogger, type FinalDelivery } from '../../src/index.js';
import { faultCase, fakeTime, loadFaultCases, playEvents } from '../../src/testing/index.js';
import { settle } from '../helpers.js';
import { scriptedPlatform, type PlatformAnswer } from './scripted-platform.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));
const c = faultCase(cases, 'F18');

afterEach(() => vi.useRealTimers());

const FAIL: PlatformAnswer = { kind: 'transient' };

/** Plays F18 on a scripted platform; returns the platform and the final report (when it came). */
async function run(scripts: Parameters<typeof scriptedPlatform>[0], latencyMs = 0) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const platform = scriptedPlatform(scripts, { latencyMs });
  const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
  const card = cards.open('memory');
  let reported: FinalDelivery | undefined;
  void card.finalDelivery.then((result) => (reported = result));
  await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
  return { platform, cards, card, reported: () => reported };
}

/** What the chat shows at the end: messages showing the final answer, and messages still running. */
function chat(platform: ReturnType<typeof scriptedPlatform>) {
  const last = platform.mainMessages().map((message) => message.history.at(-1)!);
  return {
    showingFinal: last.filter((payload) => payload.answer === 'done' && payload.status === 'completed').length,
    running: last.filter((payload) => !isTerminalStatus(payload.status)).length,
  };
}

describe('F18 a final moved to a fresh message', () => {
  it('variant A (5 failed updates): one message shows the final, the abandoned one is closed first', async () => {
    const { platform, reported } = await run({ update: [FAIL, FAIL, FAIL, FAIL, FAIL] });
    await settle(120_000);
    expect(reported()).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });

  it('variant A with the first close refused too: the close is retried, and the final is reported only after it', async () => {
    const { platform, reported } = await run({ update: [FAIL, FAIL, FAIL, FAIL, FAIL, FAIL, FAIL] });
    await settle(120_000);
    expect(reported()).toMatchObject({ ok: true, freshMessage: true });
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });

  it('variant A with updates that time out and are applied late: the abandoned message never shows the final a second time', async () => {
    const LATE: PlatformAnswer = { kind: 'late', lateMs: 5000 };
    const { platform, reported } = await run({ update: [LATE, LATE, LATE, LATE, LATE] });
    await settle(120_000);
    expect(platform.lateCalls()).toBe(0);
    expect(reported()).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });

  it('variant B (send 502, 502, ok holding the final, update 502, 502): exactly one message shows the final', async () => {
    const { platform, reported } = await run({ send: [FAIL, FAIL], update: [FAIL, FAIL] });
    await settle(120_000);
    expect(reported()).toMatchObject({ ok: true, status: 'completed' });
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });

  it('variant C (500 ms per call): shutdown() returns only after every message is closed', async () => {
    const { platform, cards } = await run({}, 500);
    let closed = false;
    void cards.shutdown().then(() => (closed = true));
    while (!closed) await vi.advanceTimersByTimeAsync(100);
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });

  it('variant A while shutting down: shutdown() waits for the abandoned message to be closed', async () => {
    const { platform, cards } = await run({ update: [FAIL, FAIL, FAIL, FAIL, FAIL, FAIL] });
    let closed = false;
    void cards.shutdown({ deadlineMs: 120_000 }).then(() => (closed = true));
    while (!closed) await vi.advanceTimersByTimeAsync(100);
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });

  it('a fresh card that never got through: the abandoned message does not claim the result was sent below', async () => {
    const { platform, reported } = await run({ update: [FAIL, FAIL, FAIL, FAIL, FAIL], send: [{ kind: 'ok' }, ...Array<PlatformAnswer>(20).fill(FAIL)] });
    await settle(120_000);
    expect(reported()).toMatchObject({ ok: false, status: 'completed' });
    const shown = platform.mainMessages().map((message) => message.history.at(-1)!);
    // (the fault case's run is in Chinese)
    expect(shown.map((payload) => payload.answer).join('\n')).not.toMatch(/下方的新卡片|new card below/);
    expect(shown.some((payload) => /结果可能未能送达|may not have been delivered/.test(payload.answer))).toBe(true);
  });

  it('a close of the abandoned message that meets an expired token refreshes it and retries', async () => {
    const { platform, reported } = await run({ update: [FAIL, FAIL, FAIL, FAIL, FAIL, { kind: 'expired' }] });
    await settle(120_000);
    expect(reported()).toMatchObject({ ok: true, freshMessage: true });
    expect(platform.refreshes()).toBe(1);
    expect(chat(platform)).toEqual({ showingFinal: 1, running: 0 });
  });
});
