import type { ProgressCard } from '@progresscard/core';
import type { TelegramMessageSnapshot } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { TelegramWebhook } from '../src/index.js';
import { harness, waitFor, type Harness } from './harness.js';

// Telegram buttons: the plugin serves the webhook, the emulator posts callback_query updates with
// the secret token over loopback, the plugin answers them with answerCallbackQuery.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECRET = 'tg-webhook-secret_1';
const buttonsOf = (m: TelegramMessageSnapshot | undefined) => ((m?.replyMarkup as { inline_keyboard?: { text: string; callback_data: string }[][] } | undefined)?.inline_keyboard ?? []).flat();

async function interactive() {
  h = await harness({ scale: 2, plugin: { webhook: { secretToken: SECRET, port: 0 } } });
  const t = h;
  const webhook = t.plugin.interaction as TelegramWebhook;
  return {
    h: t,
    open(requester?: string): ProgressCard {
      const card = t.cards.open('telegram', undefined, { locale: 'en', requester: requester ? { id: requester, name: 'Ann' } : undefined });
      card.start({ title: 'Deploy' });
      return card;
    },
    async shown(label: string): Promise<TelegramMessageSnapshot> {
      const url = await waitFor(() => webhook.url, 'the webhook');
      t.emulator.setWebhook({ url, secretToken: SECRET });
      return waitFor(() => t.emulator.messages().findLast((m) => buttonsOf(m).some((b) => b.text === label)), `a message with "${label}"`);
    },
  };
}

describe('interactive cards on Telegram: inline keyboards and callback queries', () => {
  it('approve: the toast answers the press, the card shows who decided and loses its buttons; every callback_data fits 64 bytes', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const message = await t.shown('Approve');
    for (const button of buttonsOf(message)) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
    const pressed = await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'Approve', userId: 7, userName: 'Bob' });
    expect(pressed).toMatchObject({ status: 200, answer: { text: expect.any(String) } });
    await expect(decision).resolves.toMatchObject({ approved: true, optionId: 'approve', by: { id: '7', name: 'Bob' } });
    const now = await waitFor(() => {
      const m = t.h.emulator.message(message.chatId, message.messageId);
      return m && buttonsOf(m).length === 0 && m;
    }, 'the decided card');
    expect(now.text).toContain('✅ Approve · Bob');
  });

  it('first click wins: a second press hears it was decided already, the decision stands', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Drop the table?' });
    const message = await t.shown('Deny');
    await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'Deny', userId: 7 });
    const late = await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'Approve', userId: 8 });
    expect(String(late.answer?.text)).toMatch(/already/i);
    await expect(decision).resolves.toMatchObject({ approved: false, optionId: 'deny', by: { id: '7' } });
  });

  it('owner check: only the requester may decide; others get a polite refusal as an alert', async () => {
    const t = await interactive();
    const card = t.open('7');
    const decision = card.requestApproval({ prompt: 'Ship it?' });
    const message = await t.shown('Approve');
    const stranger = await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'Approve', userId: 9 });
    expect(stranger.answer).toMatchObject({ show_alert: true });
    await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'Approve', userId: 7 });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: '7' } });
  });

  it('answer by choice button', async () => {
    const t = await interactive();
    const card = t.open();
    const answer = card.ask({ prompt: 'Which region?', choices: ['eu-west', 'us-east'] });
    const message = await t.shown('us-east');
    await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'us-east', userId: 7 });
    await expect(answer).resolves.toMatchObject({ text: 'us-east', by: { id: '7' } });
  });

  it('stop: the agent handler runs and the card ends cancelled by that user', async () => {
    const t = await interactive();
    const card = t.open();
    const stoppedBy: string[] = [];
    card.onStop((user) => void stoppedBy.push(user.id));
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    const message = await t.shown('⏹ Stop');
    await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: '⏹ Stop', userId: 7, userName: 'Bob' });
    expect(stoppedBy).toEqual(['7']);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
  });

  it('an update without the right secret token is refused (401) and changes nothing', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Ship it?', timeoutMs: 60_000 });
    const message = await t.shown('Approve');
    const forged = await t.h.emulator.click({ chatId: message.chatId, messageId: message.messageId, button: 'Approve', userId: 7, secretToken: 'guess' });
    expect(forged).toMatchObject({ status: 401, error: 'http-error' });
    // refused before anything was routed: no answer to the query, the buttons still there
    expect(t.h.emulator.calls({ route: 'answerCallbackQuery' })).toEqual([]);
    expect(buttonsOf(t.h.emulator.message(message.chatId, message.messageId)).map((b) => b.text)).toContain('Approve');
    card.complete();
    await expect(decision).resolves.toMatchObject({ timedOut: true });
  });
});
