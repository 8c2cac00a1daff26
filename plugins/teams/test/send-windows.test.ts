import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEAMS_CONVERSATION_WINDOWS } from '../src/config.js';
import { ConversationSendWindows, type AdmittedCall } from '../src/transport/send-windows.js';

// Fake time: when the guard lets the eighth call of a burst leave, given how the first seven's answers came.
beforeEach(() => void vi.useFakeTimers({ now: 0 }));
afterEach(() => void vi.useRealTimers());

const CHAT = '19:chat@thread.v2';

/** Admits a call and says when (fake ms) it was let leave. */
function leave(windows: ConversationSendWindows, conversation = CHAT): { left: Promise<number>; call: Promise<AdmittedCall> } {
  const call = windows.admit(conversation);
  return { call, left: call.then(() => Date.now()) };
}

describe('Teams per-conversation send windows (7 / 1 s, 8 / 2 s, 60 / 30 s as calls leave)', () => {
  it('a burst whose calls answered later than the fastest round trip (fresh connections) holds the eighth call back by that lateness', async () => {
    const windows = new ConversationSendWindows(() => TEAMS_CONVERSATION_WINDOWS);
    // A call on a warm connection elsewhere: 20 ms there and back.
    const warm = await windows.admit('19:other@thread.v2');
    await vi.advanceTimersByTimeAsync(20);
    warm.answered();
    const start = Date.now();
    const burst = await Promise.all(Array.from({ length: 7 }, () => leave(windows).call));
    await vi.advanceTimersByTimeAsync(200);
    for (const call of burst) call.answered(); // 200 ms round trips: each may have reached Teams 180 ms after it left
    const eighth = leave(windows);
    await vi.advanceTimersByTimeAsync(5_000);
    // 180 ms late + the 1 s window + the 250 ms margin.
    expect((await eighth.left) - start).toBe(1_430);
  });

  it('a connector that answers slowly every time moves nothing: the eighth call leaves once the window and margin passed', async () => {
    const windows = new ConversationSendWindows(() => TEAMS_CONVERSATION_WINDOWS);
    // A first round trip of 1.5 s elsewhere tells the guard how fast the connector answers.
    const warmUp = await windows.admit('19:other@thread.v2');
    await vi.advanceTimersByTimeAsync(1_500);
    warmUp.answered();
    const start = Date.now();
    const burst = await Promise.all(Array.from({ length: 7 }, () => leave(windows).call));
    const eighth = leave(windows);
    await vi.advanceTimersByTimeAsync(1_500);
    for (const call of burst) call.answered();
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await eighth.left) - start).toBe(1_250);
  });

  it('before any answer a call in flight counts as arriving now: the eighth call of a first burst waits for the first answers', async () => {
    const windows = new ConversationSendWindows(() => TEAMS_CONVERSATION_WINDOWS);
    const burst = await Promise.all(Array.from({ length: 7 }, () => leave(windows).call));
    const eighth = leave(windows);
    let leftAt: number | undefined;
    void eighth.left.then((at) => (leftAt = at));
    await vi.advanceTimersByTimeAsync(1_249);
    expect(leftAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(300);
    for (const call of burst) call.answered(); // answered together at 1.549 s: no spread
    await vi.advanceTimersByTimeAsync(5_000);
    expect(leftAt).toBeGreaterThanOrEqual(1_250);
    expect(leftAt).toBeLessThanOrEqual(2_500);
  });
});
