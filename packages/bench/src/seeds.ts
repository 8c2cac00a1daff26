import type { PointResult } from './run-point.js';

/** Lowest and highest of a figure over the seeds of a point. */
export interface Spread {
  readonly min: number;
  readonly max: number;
}

/** A point's median result over its seeds, with the spread of the headline figures. */
export interface SeededResult extends PointResult {
  readonly seeds: readonly number[];
  readonly spread: {
    readonly toolP99: Spread;
    readonly firstCardP99: Spread;
    readonly finalP99: Spread;
    readonly rejections: Spread;
  };
}

const spreadOf = (values: readonly number[]): Spread => ({ min: Math.min(...values), max: Math.max(...values) });
const rejectedOf = (result: PointResult) => Object.values(result.rejections).reduce((a, b) => a + b, 0);

/**
 * One result per workload, channel, N and design: the seed whose tool staleness p99 is the median
 * (the lower median for an even count), with the lowest and highest tool, first-card and final p99
 * and rejections over all seeds beside it.
 */
export function medianOverSeeds(all: readonly PointResult[]): SeededResult[] {
  const groups = new Map<string, PointResult[]>();
  for (const result of all) {
    const key = `${result.workload}|${result.channel}|${result.n}|${result.apps}|${result.design}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => a.staleness.tool.p99 - b.staleness.tool.p99);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    return {
      ...median,
      seeds: group.map((r) => r.seed),
      spread: {
        toolP99: spreadOf(group.map((r) => r.staleness.tool.p99)),
        firstCardP99: spreadOf(group.map((r) => r.staleness.firstCard.p99)),
        finalP99: spreadOf(group.map((r) => r.final.p99)),
        rejections: spreadOf(group.map(rejectedOf)),
      },
    };
  });
}
