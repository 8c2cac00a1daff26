import { describe, expect, it } from 'vitest';
import { autoSpeed, capGaps, ReplayClock, replayTickMs } from '../src/index.js';

describe('replay timing', () => {
  it('runs card time at speed× from the trace start', () => {
    let wall = 1_000;
    const clock = new ReplayClock(5_000_000, 4, () => wall);
    expect(clock.now()).toBe(5_000_000); // before start: the trace start
    clock.start();
    wall += 2_500;
    expect(clock.now()).toBe(5_010_000);
    expect(clock.wallDelayUntil(5_012_000)).toBe(500);
    expect(clock.wallDelayUntil(5_000_000)).toBe(0);
  });

  it('ticks every 3 s of card time in wall ms, never faster than 250 ms', () => {
    expect(replayTickMs(1)).toBe(3000);
    expect(replayTickMs(2.4)).toBe(1250);
    expect(replayTickMs(12)).toBe(250);
    expect(replayTickMs(60)).toBe(250);
  });

  it('picks a speed that fits the trace into the target, never slower than recorded', () => {
    expect(autoSpeed(143_400, 60)).toBe(2.39);
    expect(autoSpeed(30_000, 60)).toBe(1);
    expect(autoSpeed(10 * 3_600_000, 60)).toBe(600);
  });

  it('caps long pauses and moves later stamps back', () => {
    const items = [{ at: 0 }, { at: 1_000 }, { at: 61_000 }, { at: 62_000 }];
    expect(capGaps(items, 10_000).map((i) => i.at)).toEqual([0, 1_000, 11_000, 12_000]);
    expect(capGaps(items, undefined).map((i) => i.at)).toEqual([0, 1_000, 61_000, 62_000]);
  });

  it('rejects a speed that is not a positive number', () => {
    expect(() => new ReplayClock(0, 0)).toThrow(RangeError);
  });
});
