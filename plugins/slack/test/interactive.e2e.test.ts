import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressCard } from '@progresscard/core';
import type { SlackMessageSnapshot } from '@progresscard/emulator';
import { slackSignature, type SlackInteractivity } from '../src/index.js';
import { harness, type Harness } from './harness.js';

// Slack buttons: the plugin serves the interactivity Request URL, the emulator posts signed
// block_actions payloads to it over loopback, the plugin answers through response_url.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SIGNING_SECRET = 'slack-signing-secret-1';

async function waitFor<T>(read: () => T | undefined | false, what: string, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Block = { type: string; block_id?: string; text?: { text: string }; elements?: { type: string; text?: { text: string } | string; value?: string }[] };
const blocksOf = (m: SlackMessageSnapshot | undefined) => (m?.blocks ?? []) as Block[];
const buttonsOf = (m: SlackMessageSnapshot | undefined) =>
  blocksOf(m).flatMap((b) => (b.type === 'actions' ? (b.elements ?? []).map((e) => (e.text as { text: string }).text) : []));
const decidedOf = (m: SlackMessageSnapshot | undefined) => blocksOf(m).find((b) => b.block_id === 'pc_decided')?.text?.text;

async function interactive(options: { configure?: boolean; requester?: string } = {}) {
  h = await harness({ plugin: { interactivity: { signingSecret: SIGNING_SECRET, port: 0 } } });
  const harnessed = h;
  const server = harnessed.plugin.interaction as SlackInteractivity;
  return {
    h: harnessed,
    open(requester?: string): ProgressCard {
      const card = harnessed.cards.open('slack', undefined, { locale: 'en', requester: requester ? { id: requester, name: 'Ann' } : undefined });
      card.start({ title: 'Deploy' });
      return card;
    },
    /** Waits until a message shows the button `label` (and the Request URL is configured). */
    async shown(label: string): Promise<SlackMessageSnapshot> {
      const url = await waitFor(() => server.url, 'the interactivity server');
      if (options.configure !== false) harnessed.emulator.configureInteractivity({ url, signingSecret: SIGNING_SECRET });
      return waitFor(() => harnessed.emulator.messages().findLast((m) => buttonsOf(m).includes(label) || blocksOf(m).some((b) => b.type === 'input' && label === 'answer')), `a message with "${label}"`);
    },
  };
}

describe('interactive cards on Slack: Block Kit buttons and signed block_actions payloads', () => {
  it('approve: the message is replaced in place (who decided, no buttons) and the agent gets the decision', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const message = await t.shown('Approve');
    expect(blocksOf(message).find((b) => b.type === 'actions')?.elements?.map((e) => JSON.parse(e.value!))).toEqual([
      expect.objectContaining({ pc: '1', option: 'approve' }),
      expect.objectContaining({ pc: '1', option: 'deny' }),
    ]);
    const clicked = await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', name: 'Bob', button: 'Approve' });
    expect(clicked).toMatchObject({ status: 200, cardUpdated: true, ephemeral: [] });
    const now = t.h.emulator.message(message.ts)!;
    expect(decidedOf(now)).toBe(':white_check_mark: Approve · Bob');
    expect(buttonsOf(now)).toEqual([]);
    await expect(decision).resolves.toMatchObject({ approved: true, optionId: 'approve', by: { id: 'U0BOB', name: 'Bob' }, timedOut: false });
  });

  it('deny: ❌ on the card, not approved for the agent', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Drop the table?' });
    const message = await t.shown('Deny');
    await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'Deny' });
    await expect(decision).resolves.toMatchObject({ approved: false, optionId: 'deny' });
    expect(decidedOf(t.h.emulator.message(message.ts))).toBe(':x: Deny · U0BOB');
  });

  it('answer: a choice button, then free text sent with Enter from the input', async () => {
    const t = await interactive();
    const card = t.open();
    const choice = card.ask({ prompt: 'Which region?', choices: ['eu-west', 'us-east'] });
    let message = await t.shown('us-east');
    await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'us-east' });
    await expect(choice).resolves.toMatchObject({ text: 'us-east' });
    const free = card.ask({ prompt: 'Release name?' });
    message = await waitFor(() => t.h.emulator.messages().findLast((m) => blocksOf(m).some((b) => b.type === 'input')), 'the answer input');
    const sent = await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'pc_answer', input: 'Aurora' });
    expect(sent.cardUpdated).toBe(true);
    await expect(free).resolves.toMatchObject({ text: 'Aurora', by: { id: 'U0BOB' } });
  });

  it('stop: the agent handler runs and the card ends cancelled by that user', async () => {
    const t = await interactive();
    const card = t.open();
    const stoppedBy: string[] = [];
    card.onStop((user) => void stoppedBy.push(user.id));
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    const message = await t.shown('⏹ Stop');
    await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', name: 'Bob', button: '⏹ Stop' });
    expect(stoppedBy).toEqual(['U0BOB']);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
    await waitFor(() => JSON.stringify(t.h.emulator.message(message.ts)!.blocks).includes('Stopped by Bob'), 'the cancellation on the card');
    expect(buttonsOf(t.h.emulator.message(message.ts))).toEqual([]);
  });

  it('timeout: denied by default and shown on the card; a late click hears (privately) it was decided', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Rotate keys?', timeoutMs: 400 });
    const message = await t.shown('Approve');
    await expect(decision).resolves.toMatchObject({ timedOut: true, approved: false, optionId: 'deny' });
    const late = await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'Approve', shownBlocks: message.blocks });
    expect(late).toMatchObject({ cardUpdated: false, ephemeral: ['Already decided (timed out)'] });
    await waitFor(() => decidedOf(t.h.emulator.message(message.ts)) === ':hourglass: Deny · timed out', 'the timeout on the card');
  });

  it('foreign user: a polite refusal only they see; the requester then decides', async () => {
    const t = await interactive();
    const card = t.open('U0ANN');
    const decision = card.requestApproval({ prompt: 'Merge?' });
    const message = await t.shown('Approve');
    const refused = await t.h.emulator.click({ ts: message.ts, user: 'U0EVE', button: 'Approve' });
    expect(refused).toMatchObject({ cardUpdated: false, ephemeral: ['Sorry, only the requester or the allowed users can decide this one'] });
    expect(card.status).toBe('waiting');
    await t.h.emulator.click({ ts: message.ts, user: 'U0ANN', button: 'Approve' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'U0ANN' } });
  });

  it('double click: the first wins and the second is told who decided', async () => {
    const t = await interactive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Ship it?' });
    const message = await t.shown('Approve');
    const [first, second] = await Promise.all([
      t.h.emulator.click({ ts: message.ts, user: 'U0BOB', name: 'Bob', button: 'Deny', shownBlocks: message.blocks }),
      t.h.emulator.click({ ts: message.ts, user: 'U0EVE', name: 'Eve', button: 'Approve', shownBlocks: message.blocks }),
    ]);
    expect([first.cardUpdated, second.cardUpdated].sort()).toEqual([false, true]);
    expect([...first.ephemeral, ...second.ephemeral]).toEqual(['Already decided by Bob']);
    await expect(decision).resolves.toMatchObject({ optionId: 'deny', by: { id: 'U0BOB' } });
  });

  it('retried payload: the same trigger_id sent again changes nothing and the decision reaches the agent once', async () => {
    const t = await interactive();
    const card = t.open();
    const decisions: unknown[] = [];
    void card.requestApproval({ prompt: 'Deploy?' }).then((d) => decisions.push(d));
    const message = await t.shown('Approve');
    const first = await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'Approve' });
    const again = await t.h.emulator.retryClick(first.triggerId!);
    expect(again).toMatchObject({ status: 200, ephemeral: [] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(decisions).toHaveLength(1);
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
    const stale = await t.h.emulator.click({ ts: old.ts, user: 'U0BOB', button: '⏹ Stop', shownBlocks: old.blocks });
    expect(stale).toMatchObject({ cardUpdated: false, ephemeral: [expect.stringMatching(/earlier run or turn|已结束的运行或轮次/)] });
    expect(stops).toEqual([]);
    expect(second.status).toBe('running');
  });

  it('a payload with a wrong signature, or a stale timestamp, is refused (401) and decides nothing', async () => {
    const t = await interactive();
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const message = await t.shown('Approve');
    const url = (t.h.plugin.interaction as SlackInteractivity).url!;
    t.h.emulator.configureInteractivity({ url, signingSecret: 'not-the-secret' });
    expect(await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'Approve', awaitResponseMs: 0 })).toMatchObject({ status: 401, error: 'http-error' });
    // Signed with the right secret but six minutes old: a replay.
    const body = `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', user: { id: 'U0BOB' }, trigger_id: 't1', actions: [{ action_id: 'pc_opt_0', value: '{}' }] }))}`;
    const old = String(Math.floor(Date.now() / 1000) - 360);
    const replay = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': old, 'x-slack-signature': slackSignature(SIGNING_SECRET, old, body) }, body });
    expect(replay.status).toBe(401);
    expect(card.status).toBe('waiting');
  });

  it('interactivity not configured in the app: Slack sends nothing and the card still waits', async () => {
    const t = await interactive({ configure: false });
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const message = await t.shown('Approve');
    expect(await t.h.emulator.click({ ts: message.ts, user: 'U0BOB', button: 'Approve' })).toEqual({ cardUpdated: false, ephemeral: [], error: 'interactivity-not-configured' });
    expect(card.status).toBe('waiting');
  });
});

describe('Slack without interactivity', () => {
  it('open questions show the reply to type, which decides', async () => {
    h = await harness();
    const harnessed = h;
    const card = h.cards.open('slack', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    const message = await waitFor(() => harnessed.emulator.messages().findLast((m) => blocksOf(m).some((b) => b.block_id === 'pc_reply')), 'the reply to type');
    expect(buttonsOf(message)).toEqual([]);
    const reply = (blocksOf(message).find((b) => b.block_id === 'pc_reply')!.elements![0]!.text as unknown as string);
    const code = /`\/approve ([0-9A-F]{4})`/.exec(reply)![1];
    expect(await harnessed.cards.reply(`/approve ${code}`, { id: 'U0BOB' }, 'chat-1')).toMatchObject({ outcome: 'decided' });
    await expect(decision).resolves.toMatchObject({ approved: true });
  });
});
