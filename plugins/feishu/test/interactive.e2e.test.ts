import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressCard } from '@progresscard/core';
import type { FeishuMessageSnapshot } from '@progresscard/emulator';
import type { FeishuHttpCallbacks } from '../src/index.js';
import { elementsOf, harness, textOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const VERIFICATION_TOKEN = 'verify-token-1';
const ENCRYPT_KEY = 'encrypt-key-1';

async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A harness whose plugin serves HTTP card callbacks and whose emulator delivers them there. */
async function interactive(options: { configure?: boolean } = {}) {
  h = await harness({ plugin: { callbacks: { mode: 'http', port: 0, verificationToken: VERIFICATION_TOKEN, encryptKey: ENCRYPT_KEY } } });
  const server = h.plugin.interaction as FeishuHttpCallbacks;
  const harnessed = h;
  return {
    h: harnessed,
    /** Opens a started card (requester `ou_ann` when asked). */
    open(requester?: string): ProgressCard {
      const card = harnessed.cards.open('feishu', undefined, { locale: 'en', requester: requester ? { id: requester, name: 'Ann' } : undefined });
      card.start({ title: 'Deploy' });
      return card;
    },
    /** Waits until the card message shows the button `label`, and the callback URL is configured. */
    async shown(label: string): Promise<FeishuMessageSnapshot> {
      const url = await waitFor(() => server.url, 'the callback server');
      if (options.configure !== false) harnessed.emulator.configureCallbacks({ url, verificationToken: VERIFICATION_TOKEN, encryptKey: ENCRYPT_KEY });
      return waitFor(() => harnessed.emulator.messages().findLast((m) => elementsOf(m.card).some((e) => e.tag === 'button' && (e.text as { content: string }).content === label)), `a card with "${label}"`);
    },
  };
}

const toast = (response: Record<string, unknown> | undefined) => (response?.toast as { content: string; type: string } | undefined);

describe('interactive cards on Feishu: HTTP card callbacks through the emulator', () => {
  it('approve: the click answers within the callback with the updated card (green, who decided, no buttons) and the agent gets the decision', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const message = await t.shown('Approve');
    expect(message.card).toMatchObject({ header: { template: 'orange' } });
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', name: 'Bob', button: 'Approve' });
    expect(clicked).toMatchObject({ status: 200, cardUpdated: true });
    expect(toast(clicked.response)).toEqual({ type: 'success', content: 'Sent: Approve' });
    const now = t.h.emulator.message(message.messageId)!;
    expect(textOf(now.card, 'ia_decided')).toBe("<font color='green'>✅ Approve · Bob</font>");
    expect(elementsOf(now.card).some((e) => e.tag === 'button')).toBe(false);
    await expect(decision).resolves.toMatchObject({ approved: true, optionId: 'approve', by: { id: 'ou_bob', name: 'Bob' }, timedOut: false });
    card.complete('Published.');
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'completed' });
    expect(textOf(t.h.emulator.message(message.messageId)!.card, 'ia_decided')).toContain('Approve · Bob');
  });

  it('deny: red on the card, not approved for the agent', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Drop the table?' });
    const message = await t.shown('Deny');
    await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Deny' });
    await expect(decision).resolves.toMatchObject({ approved: false, optionId: 'deny', timedOut: false });
    expect(textOf(t.h.emulator.message(message.messageId)!.card, 'ia_decided')).toBe("<font color='red'>❌ Deny · ou_bob</font>");
  });

  it('answer: a choice button, then free text typed into the form', async () => {
    const t = await interactive();
    const card = t.open();
    const choice = card.ask({ prompt: 'Which region?', choices: ['eu-west', 'us-east'] });
    let message = await t.shown('us-east');
    await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'us-east' });
    await expect(choice).resolves.toMatchObject({ text: 'us-east', timedOut: false });
    const free = card.ask({ prompt: 'Release name?' });
    message = await t.shown('Send');
    const sent = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Send', input: 'Aurora' });
    expect(sent.cardUpdated).toBe(true);
    await expect(free).resolves.toMatchObject({ text: 'Aurora', by: { id: 'ou_bob' } });
  });

  it('stop: the agent handler runs and the card ends cancelled by that user', async () => {
    const t = await interactive();
    const card = t.open();
    const stoppedBy: string[] = [];
    card.onStop((user) => void stoppedBy.push(user.id));
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    const message = await t.shown('⏹ Stop');
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', name: 'Bob', button: '⏹ Stop' });
    expect(toast(clicked.response)?.content).toBe('Stopping the run');
    expect(stoppedBy).toEqual(['ou_bob']);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
    const final = t.h.emulator.message(message.messageId)!;
    expect(final.card).toMatchObject({ header: { template: 'grey' } });
    expect(textOf(final.card, 'error')).toContain('Stopped by Bob');
    expect(elementsOf(final.card).some((e) => e.tag === 'button')).toBe(false);
  });

  it('timeout: denied by default and shown on the card; a late click hears it was decided', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Rotate keys?', timeoutMs: 400 });
    const message = await t.shown('Approve');
    await expect(decision).resolves.toMatchObject({ timedOut: true, approved: false, optionId: 'deny' });
    const late = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(toast(late.response)?.content).toBe('Already decided (timed out)');
    await waitFor(() => textOf(t.h.emulator.message(message.messageId)!.card, 'ia_decided')?.includes('timed out'), 'the timeout on the card');
    expect(textOf(t.h.emulator.message(message.messageId)!.card, 'ia_decided')).toBe("<font color='red'>⌛ Deny · timed out</font>");
  });

  it('foreign user: a polite refusal and the card stays as it is; the requester then decides', async () => {
    const t = await interactive();
    const card = t.open('ou_ann');
    const decision = card.requestApproval({ prompt: 'Merge?' });
    const message = await t.shown('Approve');
    const refused = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_eve', button: 'Approve' });
    expect(refused).toMatchObject({ status: 200, cardUpdated: false });
    expect(toast(refused.response)).toEqual({ type: 'warning', content: 'Sorry, only the requester or the allowed users can decide this one' });
    expect(card.status).toBe('waiting');
    await t.h.emulator.click({ messageId: message.messageId, user: 'ou_ann', button: 'Approve' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_ann' } });
  });

  it('double click: the first wins and the second is told who decided', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Ship it?' });
    const message = await t.shown('Approve');
    const [first, second] = await Promise.all([
      t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', name: 'Bob', button: 'Deny' }),
      t.h.emulator.click({ messageId: message.messageId, user: 'ou_eve', name: 'Eve', button: 'Approve' }),
    ]);
    expect([toast(first.response)?.content, toast(second.response)?.content].sort()).toEqual(['Already decided by Bob', 'Sent: Deny'].sort());
    await expect(decision).resolves.toMatchObject({ optionId: 'deny', by: { id: 'ou_bob' } });
  });

  it('retried callback: the same event_id is answered again but the decision reaches the agent once', async () => {
    const t = await interactive();
    const card = t.open();
    const decisions: unknown[] = [];
    void card.requestApproval({ prompt: 'Deploy?' }).then((d) => decisions.push(d));
    const message = await t.shown('Approve');
    const first = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    const again = await t.h.emulator.retryCallback(first.eventId!);
    expect(toast(again.response)).toEqual(toast(first.response));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(decisions).toHaveLength(1);
    expect(t.h.emulator.calls({ route: 'callback.card.action.trigger', key: message.messageId })).toHaveLength(2);
  });

  it('stale control: a Stop button of an earlier run, still shown by a client, does nothing', async () => {
    const t = await interactive();
    const first = t.open();
    const stops: string[] = [];
    first.onStop((user) => void stops.push(user.id));
    const old = await t.shown('⏹ Stop');
    first.complete('done');
    await first.finalDelivery;
    const second = t.open();
    second.onStop((user) => void stops.push(user.id));
    await waitFor(() => t.h.emulator.messages().length === 2, 'the second card');
    const stale = await t.h.emulator.click({ messageId: old.messageId, user: 'ou_bob', button: '⏹ Stop', shownCard: old.card });
    expect(stale).toMatchObject({ status: 200, cardUpdated: false });
    expect(toast(stale.response)?.content).toMatch(/earlier run or turn|已结束的运行或轮次/);
    expect(stops).toEqual([]);
    expect(second.status).toBe('running');
    expect(t.h.emulator.message(old.messageId)!.card).toMatchObject({ header: { template: 'green' } });
  });

  it('a callback with a wrong signature is refused (401) and decides nothing', async () => {
    const t = await interactive();
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const message = await t.shown('Approve');
    t.h.emulator.configureCallbacks({ url: (t.h.plugin.interaction as FeishuHttpCallbacks).url!, verificationToken: VERIFICATION_TOKEN, encryptKey: 'not-the-key' });
    const forged = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(forged).toMatchObject({ status: 401, error: 'http-error', cardUpdated: false });
    expect(card.status).toBe('waiting');
  });

  it('callbacks not configured: the emulator refuses the click as Feishu does, and nothing changes', async () => {
    const t = await interactive({ configure: false });
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const message = await t.shown('Approve');
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(clicked).toEqual({ cardUpdated: false, error: 'callbacks-not-configured', clientError: { code: 200340, message: '出错了，请稍后再试' } });
    expect(card.status).toBe('waiting');
  });

  it('answers the url_verification challenge with the verification token, and refuses a wrong token', async () => {
    const t = await interactive();
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    await t.shown('Approve');
    const url = (t.h.plugin.interaction as FeishuHttpCallbacks).url!;
    const challenge = (token: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'url_verification', challenge: 'c-123', token }) });
    const ok = await challenge(VERIFICATION_TOKEN);
    expect(ok.status).toBe(200);
    await expect(ok.json()).resolves.toEqual({ challenge: 'c-123' });
    expect((await challenge('wrong')).status).toBe(401);
  });
});
