import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DINGTALK_TERMINAL_CARD_STATES, type DingTalkEmulator } from '@progresscard/emulator';
import { setup } from './helpers.js';
import { sleep } from './replay.js';

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
});

async function start(config = {}) {
  const s = await setup(config);
  emulator = s.emulator;
  cards = createProgressCards({ channels: [s.plugin], logger: silentLogger });
  return { emulator: s.emulator, cards };
}

describe('DingTalk plugin ↔ core ↔ emulator', () => {
  it('a full run ends as one finished card with the tool summary, the answer and the footer', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk');
    card.start({ title: 'Refactor parser', model: 'model-x' });
    card.roundStarted(1);
    card.toolStarted('c1', 'shell', '{"command":"npm test"}');
    await sleep(700);
    card.toolFinished('c1', '212 passed');
    card.answer('All tests pass.');
    card.complete();
    const final = await card.finalDelivery;

    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const all = emulator.cards();
    expect(all).toHaveLength(1);
    const dt = all[0]!;
    expect(dt.outTrackId).toBe(final.message!.id);
    expect(dt.state).toBe('finished');
    expect(dt.cardData.msgTitle).toBe('Refactor parser');
    expect(dt.cardData.flowStatus).toBe('3');
    expect(dt.cardData.msgContent).toContain('✅ **已完成**');
    expect(dt.cardData.msgContent).toContain('shell: `npm test`（完成 · 212 passed）');
    expect(dt.cardData.msgContent).toContain('All tests pass.');
    expect(dt.cardData.msgContent).toContain('model-x');
    expect(dt.history.every((h) => h.outcome === 'accepted')).toBe(true);
    expect(dt.maxConcurrentCalls).toBe(1);
  });

  it('a failed run ends failed (flowStatus 5) with the error, not spinning', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk');
    card.start({ title: 'Deploy' });
    card.toolStarted('d', 'shell', '{"command":"./deploy.sh"}');
    card.fail('deploy script exited with 1');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'failed' });
    const dt = emulator.cards()[0]!;
    expect(dt.state).toBe('failed');
    expect(dt.cardData.msgContent).toContain('**错误**：deploy script exited with 1');
  });

  it('a cancelled run ends in a terminal state and says it was cancelled (en)', async () => {
    const { emulator, cards } = await start({ locale: 'en' });
    const card = cards.open('dingtalk');
    card.start({ title: 'Long job' });
    card.toolStarted('w', 'shell', '{"command":"sleep 100"}');
    await sleep(50);
    card.cancel('stopped by user');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'cancelled' });
    const dt = emulator.cards()[0]!;
    expect(DINGTALK_TERMINAL_CARD_STATES.has(dt.state)).toBe(true);
    expect(dt.cardData.flowStatus).toBe('3');
    expect(dt.cardData.msgContent).toContain('⏹️ **Cancelled**');
    expect(dt.cardData.msgContent).toContain('**Reason**：stopped by user');
  });

  it('shutdown ends a card that is still running, so none is left spinning', async () => {
    const { emulator, cards: c } = await start();
    const card = c.open('dingtalk', { type: 'user', userId: 'staff42' });
    card.start({ title: 'Forgotten run' });
    card.toolStarted('x', 'shell', '{"command":"make"}');
    const results = await c.shutdown('service restart');
    cards = undefined;
    expect(results).toEqual([expect.objectContaining({ ok: true, status: 'cancelled' })]);
    const dt = emulator.cards()[0]!;
    expect(dt.spaces[0]).toMatchObject({ spaceType: 'IM_ROBOT', spaceId: 'staff42' });
    expect(DINGTALK_TERMINAL_CARD_STATES.has(dt.state)).toBe(true);
  });

  it('refreshes a revoked token once and carries on to the finished card', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk');
    card.start({ title: 'Token' });
    card.toolStarted('a', 'grep', '{"pattern":"TODO"}');
    await sleep(100);
    expect(emulator.cards()).toHaveLength(1);
    emulator.revokeTokens();
    card.toolFinished('a', '3 matches');
    card.complete('Three TODOs remain.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const dt = emulator.cards()[0]!;
    expect(dt.state).toBe('finished');
    expect(dt.cardData.msgContent).toContain('Three TODOs remain.');
    expect(dt.history.filter((h) => h.code === 'InvalidAuthentication')).toHaveLength(1);
    expect(emulator.calls({ route: 'oauth2.accessToken' })).toHaveLength(2);
    expect(emulator.cards()).toHaveLength(1);
  });

  it('a card that was deleted on the platform is replaced by a fresh card that ends finished', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk');
    card.start({ title: 'Gone' });
    await sleep(100);
    const first = emulator.cards()[0]!.outTrackId;
    emulator.faults.add({ route: 'card.update', key: first, respond: { status: 400, body: { code: 'param.cardNotExist', message: 'param.cardNotExist' } } });
    card.complete('Done anyway.');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, freshMessage: true });
    expect(emulator.cards()).toHaveLength(2);
    const fresh = emulator.card(final.message!.id)!;
    expect(fresh.outTrackId).not.toBe(first);
    expect(fresh).toMatchObject({ state: 'finished' });
    expect(fresh.cardData.msgContent).toContain('Done anyway.');
    expect(emulator.card(first)!.history.filter((h) => h.code === 'param.cardNotExist')).toHaveLength(1);
  });
});
