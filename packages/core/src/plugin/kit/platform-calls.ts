import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExtraCallKind, ExtraCalls } from '../contract.js';

interface Tally {
  /** Platform requests made inside the operation. */
  calls: number;
  /** Of those, the ones counted already through `ExtraCalls.acquire`. */
  acquired: number;
}

const current = new AsyncLocalStorage<Tally>();

/**
 * Marks one platform API request (an HTTP call to the platform's API: what a quota counts). Call it
 * in the plugin's one place that makes requests; it counts toward the operation
 * {@link countingPlatformCalls} runs, and does nothing outside one.
 */
export function platformCallMade(): void {
  const tally = current.getStore();
  if (tally) tally.calls += 1;
}

/**
 * Runs one transport operation (a send or an update) and reports to the core the platform
 * requests it made beyond the one the core counts for it (e.g. a CardKit send: create the entity,
 * then send the message; a DingTalk send: createAndDeliver, then the streaming PUT), through
 * `extraCalls.spent`. Requests the operation counted already with `extraCalls.acquire` (image
 * uploads, reactions, resends) are not counted twice: pass `operation` the `ExtraCalls` it gets.
 * Failed operations report their requests too (a quota counts refused calls alike).
 */
export async function countingPlatformCalls<T>(extraCalls: ExtraCalls | undefined, operation: (extraCalls: ExtraCalls | undefined) => Promise<T>): Promise<T> {
  const tally: Tally = { calls: 0, acquired: 0 };
  const counted: ExtraCalls | undefined = extraCalls && {
    acquire: async (kind: ExtraCallKind) => {
      tally.acquired += 1;
      await extraCalls.acquire(kind);
    },
    spent: (count) => extraCalls.spent?.(count),
  };
  try {
    return await current.run(tally, () => operation(counted));
  } finally {
    const beyond = tally.calls - 1 - tally.acquired;
    if (beyond > 0) extraCalls?.spent?.(beyond);
  }
}
