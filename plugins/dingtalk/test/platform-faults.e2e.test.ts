import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import type { DingTalkEmulator } from '@progresscard/emulator';
import { setup } from './helpers.js';
import { installPlatform, loadCase, replay } from './replay.js';

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
});

/** Runs a field case in real time against the emulator: its platform answers installed, its events replayed. */
async function runCase(id: string) {
  const fault = loadCase(id);
  expect(fault.channel).toBe('dingtalk');
  const s = await setup();
  emulator = s.emulator;
  cards = createProgressCards({ channels: [s.plugin], logger: silentLogger });
  // The cases were recorded when the content went through instance updates; the content now goes
  // through the streaming API, which the same app-wide limit covers, so each answer applies to both.
  const streaming = fault.platform.map((line) => line.replace('PUT /v1.0/card/instances ', 'PUT /v1.0/card/streaming ')).filter((line) => !fault.platform.includes(line));
  installPlatform(emulator, [...fault.platform, ...streaming]);
  const card = cards.open('dingtalk');
  const t0 = Date.now();
  emulator.setFaultOrigin(t0);
  await replay(card, fault.events, t0);
  const final = await card.finalDelivery;
  return { final, t0, emulator };
}

const FAILURE_WORDS = /失败|错误|Failed|Error|QpsLimit|403|Forbidden/;

// The shared behaviour (F01, F02, F05, F06, F08 on any channel) runs in conformance.e2e.test.ts;
// here the cases as DingTalk answers them.
describe('field cases on DingTalk', () => {
  it('F07 app-wide QPS limit: updates in the limited window coalesce, the card ends finished with the answer', async () => {
    const { final, t0, emulator } = await runCase('F07');
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });

    const all = emulator.cards();
    expect(all).toHaveLength(1);
    const dt = all[0]!;
    // the card ends in the finished state with 'Here is the summary.'
    expect(dt.state).toBe('finished');
    expect(dt.cardData.msgContent).toContain('Here is the summary.');
    expect(dt.cardData.msgContent).toContain('search: release notes（完成 · 8 hits）');
    // no failure text is shown in the card, at any point
    for (const h of dt.history.filter((c) => c.outcome === 'accepted')) expect(h.card!.cardData.msgContent).not.toMatch(FAILURE_WORDS);

    const updates = dt.history.filter((h) => h.route === 'card.update' || h.route === 'card.streaming');
    const limited = updates.filter((h) => h.code === 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi');
    expect(limited.length).toBeGreaterThanOrEqual(1);
    // the whole channel pauses after a 403 instead of hammering: at most one refused call per 2 s pause
    expect(limited.length).toBeLessThanOrEqual(2);
    // coalesced, not replayed one by one afterwards: after the window, only the final state goes out
    // (its content stream, closed with isFinalize, and its variables)
    const after = updates.filter((h) => h.outcome === 'accepted' && h.receivedAt! >= t0 + 3000);
    expect(after.map((h) => h.route).sort()).toEqual(['card.streaming', 'card.update']);
    expect(after.every((h) => h.card!.state === 'finished')).toBe(true);
    expect(after.find((h) => h.route === 'card.streaming')!.request).toMatchObject({ isFinalize: true, isFull: true, key: 'msgContent' });
    // nothing older than an accepted state is sent later: versions only grow, the last accepted is the final
    const accepted = dt.history.filter((h) => h.outcome === 'accepted');
    expect(accepted.at(-1)!.card!.cardData.flowStatus).toBe('3');
  });
});
