/**
 * Simulated time moves every clock the core reads. The core's card clock counts a running tool's
 * time with `performance.now()`; when the bench's virtual time left it on the real clock, a
 * simulated 10 s tool showed a few ms, its card's tick refreshes rendered unchanged and made no
 * call, and simulated points made fewer calls than the same points in real time (DingTalk N = 50:
 * 97 tick-only updates simulated, 306 in real time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runPoint } from '../src/run-point.js';
import { VirtualTime } from '../src/virtual-time.js';
import type { RunScript } from '../src/workload.js';

describe('the bench on simulated time', () => {
  let virtual: VirtualTime | undefined;
  afterEach(() => virtual?.uninstall());

  it('moves performance.now() with the virtual clock, and puts the real one back', async () => {
    const realNow = performance.now;
    virtual = new VirtualTime(1_800_000_000_000);
    virtual.install();
    const before = performance.now();
    let firedAt = Number.NaN;
    setTimeout(() => (firedAt = performance.now()), 5000);
    await virtual.run(() => !Number.isNaN(firedAt), Date.now() + 10_000, setImmediate);
    expect(firedAt - before).toBeCloseTo(5000, 6);
    virtual.uninstall();
    expect(performance.now).toBe(realNow);
    expect(Math.abs(performance.now() - realNow.call(performance))).toBeLessThan(1000);
  });

  it("refreshes a running tool's card on every tick, as real time does", async () => {
    // One DingTalk card with a 10 s tool: its 3 s tick shows 3, 6 and 9 seconds.
    const run: RunScript = {
      startMs: 0,
      chat: 'chat-0',
      events: [
        { offsetMs: 0, event: { type: 'run.started', title: 'Run 0' } },
        { offsetMs: 100, event: { type: 'tool.started', callId: 'c0', name: 'shell', args: { command: 'sleep 10' } } },
        { offsetMs: 10_100, event: { type: 'tool.finished', callId: 'c0', summary: 'ok' } },
        { offsetMs: 10_300, event: { type: 'run.completed' } },
      ],
    };
    virtual = new VirtualTime(1_800_000_000_000);
    virtual.install();
    const result = await runPoint('progresscard', 'dingtalk', 'synthetic', [run], 1, { virtual, realImmediate: setImmediate, limitMs: 60_000 });
    expect(result.finalsMissing).toBe(0);
    // The first card, the tool's start (after the 500 ms per-card interval), the ticks showing 3, 6
    // and 9 seconds, the tool's finish and the final.
    expect(result.calls).toBe(7);
  });
});
