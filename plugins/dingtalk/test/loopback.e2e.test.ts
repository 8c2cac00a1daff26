import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DINGTALK_FAILED_STATE_FALLBACK_TEXT, DINGTALK_TERMINAL_CARD_STATES, type DingTalkEmulator, type DingTalkEmulatorOptions } from '@progresscard/emulator';
import { recordingLogger } from '@progresscard/core/testing';
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

async function start(config = {}, emulatorOptions: DingTalkEmulatorOptions = {}) {
  const s = await setup(config, emulatorOptions);
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
    expect(dt.cardData.msgContent).toContain('shell: npm test（完成 · 212 passed）');
    expect(dt.cardData.msgContent).toContain('All tests pass.');
    expect(dt.cardData.msgContent).toContain('model-x');
    expect(dt.history.every((h) => h.outcome === 'accepted')).toBe(true);
    expect(dt.maxConcurrentCalls).toBe(1);
    // What the user sees on a template with the streaming switch on: the streamed content.
    expect(dt.display).toEqual({ state: 'finished', content: dt.cardData.msgContent });
  });

  it('a card opened as a reply to a group message is a normal card of the group (DingTalk cards have no thread reply)', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk', undefined, { replyTo: { messageId: 'msgq1Xk==', inThread: true } });
    card.start({ title: 'Reply in thread' });
    card.answer('done');
    card.complete();
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(emulator.cards()).toHaveLength(1);
    expect(emulator.cards()[0]!.state).toBe('finished');
  });

  async function failedRun(config = {}, emulatorOptions: DingTalkEmulatorOptions = {}) {
    const { emulator, cards } = await start(config, emulatorOptions);
    const card = cards.open('dingtalk');
    card.start({ title: 'Deploy' });
    card.toolStarted('d', 'shell', '{"command":"./deploy.sh"}');
    card.fail('deploy script exited with 1');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'failed' });
    return emulator.cards()[0]!;
  }

  it('a failed run ends in the finished state by default, so a default template shows ❌ and the error', async () => {
    const dt = await failedRun();
    expect(dt.state).toBe('finished');
    expect(dt.display.content).toContain('❌ **失败**');
    expect(dt.display.content).toContain('**错误**：deploy script exited with 1');
  });

  it("failedState 'failed' ends in the failed state: shown on a template with it enabled, hidden behind the fallback text otherwise", async () => {
    const enabled = await failedRun({ failedState: 'failed' }, { template: { failedStateEnabled: true } });
    expect(enabled.state).toBe('failed');
    expect(enabled.display.content).toContain('**错误**：deploy script exited with 1');
    await cards?.shutdown();
    await emulator?.close();
    const disabled = await failedRun({ failedState: 'failed' });
    expect(disabled.display).toMatchObject({ state: 'failed', content: DINGTALK_FAILED_STATE_FALLBACK_TEXT });
  });

  it('a final answer longer than the card continues in follow-up cards: nothing lost, none blank', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk');
    card.start({ title: 'Report' });
    const paragraphs = Array.from({ length: 120 }, (_, i) => `第 ${i} 段：解析器现在接受尾随逗号，测试全部通过。`);
    card.complete(paragraphs.join('\n\n'));
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, continuations: { delivered: expect.any(Number), total: expect.any(Number) } });
    expect(final.continuations!.delivered).toBe(final.continuations!.total);
    const all = emulator.cards();
    expect(all.length).toBe(final.continuations!.total + 1);
    for (const dt of all) {
      expect(dt.state).toBe('finished');
      expect(dt.display.problem).toBeUndefined();
      expect(Array.from(dt.display.content).length).toBeLessThanOrEqual(2500);
    }
    const shown = all.map((dt) => dt.display.content).join('\n');
    for (const paragraph of paragraphs) expect(shown).toContain(paragraph);
  });

  it('a 500 000-character answer arrives as a final card with 20 follow-ups, and the notice counts what was left out', async () => {
    const { emulator, cards } = await start({ maxContinuationMessages: 20 });
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Long report' });
    const answer = `${'word '.repeat(100_000)}END-OF-ANSWER`;
    card.complete(answer);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', continuations: { delivered: 20, total: 20 } });
    const all = emulator.cards();
    expect(all).toHaveLength(21);
    expect(all.every((dt) => dt.state === 'finished' && dt.display.problem === undefined)).toBe(true);
    // The main card's notice: how much of the answer is shown in all, out of how much.
    const notice = /showing the first (\d{1,3}(?:,\d{3})+) of (\d{1,3}(?:,\d{3})+) characters/.exec(all[0]!.display.content);
    expect(notice).not.toBeNull();
    const [shownChars, totalChars] = [Number(notice![1]!.replaceAll(',', '')), Number(notice![2]!.replaceAll(',', ''))];
    // The core holds at most 200 000 characters of an answer; the notice counts the whole answer the agent wrote.
    expect(totalChars).toBe(Array.from(answer).length);
    // The cards show what the notice says (give or take a word cut at each of the 21 cuts); the rest is left out.
    const shownText = all.map((dt) => dt.display.content).join('\n');
    const wordsShown = shownText.split('word').length - 1;
    expect(Math.abs(wordsShown * 5 - shownChars)).toBeLessThanOrEqual(21 * 5);
    expect(totalChars - shownChars).toBeGreaterThan(400_000);
    expect(shownText).not.toContain('END-OF-ANSWER');
    // 21 cards of 2 500 characters each go through the emulator's rate limits: tens of seconds on a busy
    // machine, not the e2e default of 20 s.
  }, 120_000);

  it('an invalid openConversationId fails the card after one try of its final, with one error, no retry ladder', async () => {
    const s = await setup();
    emulator = s.emulator;
    s.emulator.faults.add({ route: 'card.createAndDeliver', times: 100, respond: { status: 400, body: { code: 'invalid.openConversationId', message: 'invalid.openConversationId' } } });
    const logger = recordingLogger();
    cards = createProgressCards({ channels: [s.plugin], logger });
    const card = cards.open('dingtalk');
    card.start({ title: 'Wrong group' });
    card.toolStarted('t', 'shell', '{"command":"make"}');
    card.complete('done');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', attempts: 1 });
    expect(final.error).toContain('invalid.openConversationId');
    expect(s.emulator.calls({ route: 'card.createAndDeliver' }).length).toBeLessThanOrEqual(2);
    expect(logger.at('error')).toHaveLength(1);
  });

  it('a spent monthly quota stops the progressive updates without a fallback render, the final tried once', async () => {
    const { emulator, cards } = await start({}, { monthlyQuota: 2 });
    const card = cards.open('dingtalk');
    card.start({ title: 'Quota' });
    await sleep(700);
    for (let i = 0; i < 4; i++) {
      card.toolStarted(`t${i}`, 'shell', `{"command":"step ${i}"}`);
      await sleep(600);
    }
    card.complete('done');
    expect(await card.finalDelivery).toMatchObject({ ok: false });
    const refused = emulator.calls({ outcome: 'rejected' });
    expect(refused.every((call) => call.code === 'Forbidden.AccessDenied.ApiCountLimitForOrg')).toBe(true);
    // one refused progressive update (it stops the channel) and the final's single try
    expect(refused).toHaveLength(2);
    expect(emulator.calls().filter((call) => call.request && JSON.stringify(call.request).includes('✅')).length).toBeLessThanOrEqual(1);
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
    // The card exists before the token is revoked (a busy machine may take a while to create it).
    await vi.waitFor(() => expect(emulator.cards()).toHaveLength(1), { timeout: 30_000, interval: 20 });
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
    while (emulator.cards().length === 0) await sleep(20);
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
