import { fakeTime } from '@progresscard/core/testing';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { inProcessBot } from './harness.js';

beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-12-01T10:00:00Z') }));
afterEach(() => vi.useRealTimers());

type Card = { task_id: string; button_list: { text: string; key: string }[] };

it('template card buttons: approve reaches the agent and the card updates in place; Stop reaches the stop handler', async () => {
  const time = fakeTime(vi);
  const bot = inProcessBot();
  const { streamId } = (await bot.emulator.sendUserMessage({ userid: 'zhangsan', text: '@bot deploy' })) as { streamId: string };
  const { card } = bot.opened[0]!;
  const stoppedBy = new Promise<string>((resolve) => card.onStop((by) => resolve(by.id)));
  card.start({ title: 'Deploy' });
  const approved = card.requestApproval({ prompt: 'Run `npm publish`?' });
  await time.advance(3000);
  const shown = bot.emulator.snapshot()[0]!.card as Card;
  expect(shown.button_list.map((b) => b.text)).toEqual(['Approve', 'Deny', 'Stop']);

  expect(await bot.emulator.click(streamId, 'zhangsan', shown.button_list[0]!.key)).toEqual({ ok: true });
  await expect(approved).resolves.toMatchObject({ approved: true, by: { id: 'zhangsan' } });
  // The click's answer replaced the card (same task_id): the question's buttons are gone, Stop stays.
  const updated = bot.emulator.snapshot()[0]!.card as Card;
  expect(updated.task_id).toBe(shown.task_id);
  expect(updated.button_list.map((b) => b.text)).toEqual(['Stop']);

  expect(await bot.emulator.click(streamId, 'zhangsan', updated.button_list[0]!.key)).toEqual({ ok: true });
  await expect(stoppedBy).resolves.toBe('zhangsan');
  const finalDelivery = card.finalDelivery;
  await time.advance(5000);
  await expect(finalDelivery).resolves.toMatchObject({ status: 'cancelled', ok: true });
  expect(bot.emulator.snapshot()[0]!.text).toContain('Cancelled');
  await bot.cards.shutdown();
  await bot.emulator.close();
});
