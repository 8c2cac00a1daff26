import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { faultCase, loadFaultCases } from '@progresscard/core/testing';
import type { DingTalkEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from './helpers.js';
import { sleep } from './replay.js';

const cases = loadFaultCases(new URL('./fixtures/faults-3.jsonl', import.meta.url));

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
});

/**
 * F22's timings stretched by this factor: the plugin gives every call 1.5 s (the case's 300 ms timed out
 * ordinary calls too on a busy machine), and createAndDeliver #1 is answered after 3.5 s, well after the client gave up.
 */
const STRETCH = 5;

/** F22's platform: createAndDeliver #1 creates the card, is answered after 700 ms (the client gave up at 300) and its delivery fails. */
async function start(deliveryFailures: number) {
  const s = await setup({ timeoutMs: 300 * STRETCH });
  emulator = s.emulator;
  emulator.faults.add({ route: 'card.createAndDeliver', nth: 1, latencyMs: 700 * STRETCH });
  emulator.failDelivery({ times: deliveryFailures, errorMsg: 'SYSTEM_ERROR' });
  cards = createProgressCards({ channels: [s.plugin], logger: silentLogger, env: {}, retry: { finalRetryDelaysMs: [200, 200, 200], updateRetryDelaysMs: [1000, 1000, 1000], probeDelaysMs: [500], lateApplyWindowMs: 1000 * STRETCH } });
  const card = cards.open('dingtalk');
  const t0 = Date.now();
  for (const event of faultCase(cases, 'F22').events) {
    const at = event.at * STRETCH;
    await sleep(Math.max(0, t0 + at - Date.now()));
    card.push({ ...event, at: t0 + at });
  }
  return card;
}

describe('F22 DingTalk: a card created by a timed-out call whose delivery failed', () => {
  it('the retry that finds the card existing delivers it before the final is reported ok', async () => {
    const card = await start(1);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const [only, ...others] = emulator!.cards();
    expect(others).toHaveLength(0);
    expect(only!.spaces.map((space) => space.delivery)).toEqual(['delivered']);
  }, 90_000);

  it('when every delivery fails, finalDelivery is not ok and names the failed delivery', async () => {
    const card = await start(1000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed' });
    expect(final.error).toMatch(/created but not delivered/);
    expect(emulator!.cards()[0]!.spaces.every((space) => space.delivery !== 'delivered')).toBe(true);
  }, 120_000);
});
