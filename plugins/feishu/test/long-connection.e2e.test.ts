import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressCard } from '@progresscard/core';
import type { FeishuLongConnectionCallbackConfig, FeishuMessageSnapshot } from '@progresscard/emulator';
import { elementsOf, harness, textOf, type Harness } from './harness.js';

// The official SDK's WSClient (through the plugin) against the emulator's long connection over
// loopback: POST /callback/ws/endpoint, then protobuf frames on the WebSocket it names.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A harness whose plugin takes card callbacks over the long connection, and whose emulator pushes them there. */
async function connected(config: Partial<FeishuLongConnectionCallbackConfig> | 'not-configured' = {}) {
  // Reconnects without the default 0–30 s jitter, so a dropped connection comes back at once.
  h = await harness({ plugin: { callbacks: { mode: 'long-connection' } }, emulator: { longConnection: { reconnectJitterSeconds: 0, reconnectIntervalSeconds: 1 } } });
  const harnessed = h;
  // Feishu gives the app 3 s to answer a push; a loaded test machine can take longer, and a second
  // push would then be a retry no test asked for. Tests of retries set their own `timeoutMs`.
  harnessed.emulator.configureCallbacks(config === 'not-configured' ? undefined : { mode: 'long-connection', timeoutMs: 10_000, ...config });
  return {
    h: harnessed,
    open(requester?: string): ProgressCard {
      const card = harnessed.cards.open('feishu', undefined, { locale: 'en', requester: requester ? { id: requester, name: 'Ann' } : undefined });
      card.start({ title: 'Deploy' });
      return card;
    },
    /** Waits until the SDK is connected and the card message shows the button `label`. */
    async shown(label: string): Promise<FeishuMessageSnapshot> {
      await waitFor(() => harnessed.emulator.longConnected(), 'the long connection');
      return waitFor(() => harnessed.emulator.messages().findLast((m) => elementsOf(m.card).some((e) => e.tag === 'button' && (e.text as { content: string }).content === label)), `a card with "${label}"`);
    },
  };
}

const toast = (response: Record<string, unknown> | undefined) => response?.toast as { content: string; type: string } | undefined;

describe('interactive cards on Feishu: card callbacks over the SDK long connection', () => {
  it('approve: the callback answer travels back over the connection with the updated card, and the agent gets the decision', async () => {
    const t = await connected();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const message = await t.shown('Approve');
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', name: 'Bob', button: 'Approve' });
    // On a loaded machine the emulator may push the callback again, as Feishu does after 3 s; the
    // app must answer the retry the same way (what the user sees: one success toast, one decision).
    expect(clicked).toMatchObject({ status: 200, cardUpdated: true });
    expect(clicked.pushes).toBeGreaterThanOrEqual(1);
    expect(toast(clicked.response)).toEqual({ type: 'success', content: 'Sent: Approve' });
    const now = t.h.emulator.message(message.messageId)!;
    expect(textOf(now.card, 'ia_decided')).toBe("<font color='green'>✅ Approve · Bob</font>");
    expect(elementsOf(now.card).some((e) => e.tag === 'button')).toBe(false);
    await expect(decision).resolves.toMatchObject({ approved: true, optionId: 'approve', by: { id: 'ou_bob', name: 'Bob' }, timedOut: false });
  });

  it('deny: red on the card, not approved for the agent', async () => {
    const t = await connected();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Drop the table?' });
    const message = await t.shown('Deny');
    await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Deny' });
    await expect(decision).resolves.toMatchObject({ approved: false, optionId: 'deny', timedOut: false });
    expect(textOf(t.h.emulator.message(message.messageId)!.card, 'ia_decided')).toBe("<font color='red'>❌ Deny · ou_bob</font>");
  });

  it('answer: a choice button, then free text typed into the form', async () => {
    const t = await connected();
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
    const t = await connected();
    const card = t.open();
    const stoppedBy: string[] = [];
    card.onStop((user) => void stoppedBy.push(user.id));
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    const message = await t.shown('⏹ Stop');
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', name: 'Bob', button: '⏹ Stop' });
    expect(toast(clicked.response)?.content).toBe('Stopping the run');
    expect(stoppedBy).toEqual(['ou_bob']);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
    expect(textOf(t.h.emulator.message(message.messageId)!.card, 'error')).toContain('Stopped by Bob');
  });

  it('timeout: denied by default and shown on the card; a late click hears it was decided', async () => {
    const t = await connected();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Rotate keys?', timeoutMs: 400 });
    const message = await t.shown('Approve');
    await expect(decision).resolves.toMatchObject({ timedOut: true, approved: false, optionId: 'deny' });
    const late = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(toast(late.response)?.content).toBe('Already decided (timed out)');
    await waitFor(() => textOf(t.h.emulator.message(message.messageId)!.card, 'ia_decided')?.includes('timed out'), 'the timeout on the card');
  });

  it('foreign user: a polite refusal and the card stays as it is; the requester then decides', async () => {
    const t = await connected();
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
    const t = await connected();
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

  it('retried callback: an answer lost on the way back makes Feishu push again; the decision reaches the agent once', async () => {
    const t = await connected({ timeoutMs: 500, retries: 2, lostAnswers: 1 });
    const card = t.open();
    const decisions: unknown[] = [];
    void card.requestApproval({ prompt: 'Deploy?' }).then((d) => decisions.push(d));
    const message = await t.shown('Approve');
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(clicked).toMatchObject({ status: 200, pushes: 2 });
    // The re-push is answered from memory: the same toast, nothing decided again.
    expect(toast(clicked.response)).toEqual({ type: 'success', content: 'Sent: Approve' });
    const again = await t.h.emulator.retryCallback(clicked.eventId!);
    expect(toast(again.response)).toEqual({ type: 'success', content: 'Sent: Approve' });
    await waitFor(() => decisions.length === 1, 'the decision');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(decisions).toHaveLength(1);
  });

  it('stale control: a Stop button of an earlier run, still shown by a client, does nothing', async () => {
    const t = await connected();
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
  });

  it('a dropped connection: clicks meanwhile show Feishu\'s error, the SDK reconnects and the next click decides', async () => {
    const t = await connected();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    const message = await t.shown('Approve');
    t.h.emulator.dropLongConnections();
    const lost = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(lost).toMatchObject({ cardUpdated: false, error: 'not-connected', clientError: { code: 200340 } });
    expect(card.status).toBe('waiting');
    await waitFor(() => t.h.emulator.longConnected(), 'the SDK to reconnect');
    await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_bob' } });
  });

  it('callbacks not configured in the console: the client shows Feishu\'s error and nothing changes', async () => {
    const t = await connected('not-configured');
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const message = await t.shown('Approve');
    const clicked = await t.h.emulator.click({ messageId: message.messageId, user: 'ou_bob', button: 'Approve' });
    expect(clicked).toEqual({ cardUpdated: false, error: 'callbacks-not-configured', clientError: { code: 200340, message: '出错了，请稍后再试' } });
    expect(card.status).toBe('waiting');
  });
});

describe('Feishu long connection refused', () => {
  it('the card falls back to the reply to type, which still decides, and the refusal is logged with the platform code', async () => {
    // The app already holds every connection Feishu allows it.
    h = await harness({ plugin: { callbacks: { mode: 'long-connection' } }, emulator: { longConnection: { maxConnections: 0 } } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    const harnessed = h;
    const message = await waitFor(() => harnessed.emulator.messages().findLast((m) => textOf(m.card, 'ia_reply') !== undefined), 'the text reply on the card');
    expect(elementsOf(message.card).some((e) => e.tag === 'button')).toBe(false);
    const reply = textOf(message.card, 'ia_reply')!;
    const code = /`\/approve ([0-9A-F]{4})`/.exec(reply)?.[1];
    expect(reply).toMatch(/^Reply: `\/approve [0-9A-F]{4}`（Approve） \/ `\/deny [0-9A-F]{4}`（Deny）$/);
    expect(harnessed.logger.lines.join('\n')).toMatch(/card callbacks could not start: Feishu refused the long connection: .*code=1000040350/);
    expect(await harnessed.cards.reply(`/approve ${code}`, { id: 'ou_bob' }, 'om_chat_1')).toMatchObject({ outcome: 'decided' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_bob' } });
  });
});
