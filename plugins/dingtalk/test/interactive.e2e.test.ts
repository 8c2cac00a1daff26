import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { DEFAULT_DINGTALK_APP, type DingTalkCardSnapshot, type DingTalkEmulator } from '@progresscard/emulator';
import { setup } from './helpers.js';

let closeAll: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeAll?.();
  closeAll = undefined;
});

async function waitFor<T>(read: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const controlsOf = (card: DingTalkCardSnapshot | undefined): { buttons: { id: string; text: string }[]; input?: { id: string; text: string } } =>
  JSON.parse(card?.cardData.pcControls || '{"buttons":[]}');
const contentOf = (card: DingTalkCardSnapshot | undefined) => card?.streamed.msgContent ?? card?.cardData.msgContent ?? '';

/** Card callbacks over Stream mode, or over HTTP (signed with an apiSecret). */
type Mode = 'stream' | 'http';

const API_SECRET = 'card-callback-secret';

/** A DingTalk emulator, the plugin with card callbacks (Stream mode or HTTP) pointed at it, and a composition. */
async function interactive(options: { callbacks?: boolean; mode?: Mode } = {}) {
  const callbacks = options.mode === 'http' ? ({ mode: 'http', port: 0, apiSecret: API_SECRET } as const) : ({ mode: 'stream' } as const);
  const { emulator, plugin } = await setup(options.callbacks === false ? {} : { callbacks });
  const cards: ProgressCards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
  closeAll = async () => {
    await cards.shutdown();
    await emulator.close();
  };
  return {
    emulator: emulator as DingTalkEmulator,
    cards,
    open(requester?: string): ProgressCard {
      const card = cards.open('dingtalk', undefined, { locale: 'en', requester: requester ? { id: requester } : undefined });
      card.start({ title: 'Deploy' });
      return card;
    },
    /** Waits until a card shows the control `text` (and the Stream client is connected). */
    async shown(text: string): Promise<DingTalkCardSnapshot> {
      return waitFor(() => emulator.cards().findLast((c) => [...controlsOf(c).buttons, ...(controlsOf(c).input ? [controlsOf(c).input!] : [])].some((b) => b.text === text || b.id === text)), `a card with "${text}"`);
    },
  };
}

/** Clicks until the Stream client has subscribed (it connects when the first control is shown). */
async function click(emulator: DingTalkEmulator, args: Parameters<DingTalkEmulator['click']>[0]) {
  let result = await emulator.click(args);
  const until = Date.now() + 5000;
  while (result.error === 'callbacks-not-configured' && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    result = await emulator.click(args);
  }
  return result;
}

const notice = (response: Record<string, unknown> | undefined) => (response?.userPrivateData as { cardParamMap: { pcNotice: string } } | undefined)?.cardParamMap.pcNotice;

describe.each<{ mode: Mode }>([{ mode: 'stream' }, { mode: 'http' }])('interactive cards on DingTalk: card callbacks ($mode) through the emulator', ({ mode }) => {
  it('approve: the callback answer clears the buttons at once, the content shows who approved, the agent gets the decision', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const shown = await t.shown('Approve');
    expect(shown.cardData.flowStatus).toBe('2');
    const clicked = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'Approve' });
    expect(clicked).toMatchObject({ cardUpdated: true });
    expect(notice(clicked.response)).toBe('Sent: Approve');
    expect(t.emulator.card(shown.outTrackId)!.cardData.pcControls).toBe('');
    await expect(decision).resolves.toMatchObject({ approved: true, optionId: 'approve', by: { id: 'u_bob' }, timedOut: false });
    await waitFor(() => contentOf(t.emulator.card(shown.outTrackId)).includes('✅ Approve · u_bob'), 'the decision in the content');
    expect(contentOf(t.emulator.card(shown.outTrackId))).toContain('<font colorTokenV2=common_green1_color>✅ Approve · u_bob</font>');
  });

  it('deny: red in the content, not approved for the agent', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Drop the table?' });
    const shown = await t.shown('Deny');
    await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'Deny' });
    await expect(decision).resolves.toMatchObject({ approved: false, optionId: 'deny' });
    await waitFor(() => contentOf(t.emulator.card(shown.outTrackId)).includes('<font colorTokenV2=common_red1_color>❌ Deny · u_bob</font>'), 'the denial in the content');
  });

  it('answer: a choice button, then free text sent from the input', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const choice = card.ask({ prompt: 'Which region?', choices: ['eu-west', 'us-east'] });
    let shown = await t.shown('us-east');
    await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'us-east' });
    await expect(choice).resolves.toMatchObject({ text: 'us-east' });
    const free = card.ask({ prompt: 'Release name?' });
    shown = await t.shown('Send');
    await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'Send', input: 'Aurora' });
    await expect(free).resolves.toMatchObject({ text: 'Aurora', by: { id: 'u_bob' } });
  });

  it('stop: the agent handler runs and the card ends cancelled by that user', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const stoppedBy: string[] = [];
    card.onStop((user) => void stoppedBy.push(user.id));
    const shown = await t.shown('⏹ Stop');
    const clicked = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: '⏹ Stop' });
    expect(notice(clicked.response)).toBe('Stopping the run');
    expect(stoppedBy).toEqual(['u_bob']);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
    const final = t.emulator.card(shown.outTrackId)!;
    expect(final.cardData.flowStatus).toBe('3');
    expect(contentOf(final)).toContain('Stopped by u_bob');
  });

  it('timeout: denied by default and shown in the content; a late click hears it was decided', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Rotate keys?', timeoutMs: 1500 });
    const shown = await t.shown('Approve');
    // make sure the Stream client is connected before the question times out
    const early = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_nobody', button: 'Approve', shownControls: '{"buttons":[{"id":"x","text":"Approve","params":{"pc":"1","card":"none","interaction":"none"}}]}' });
    expect(notice(early.response)).toMatch(/earlier run or turn|已结束的运行或轮次/);
    await expect(decision).resolves.toMatchObject({ timedOut: true, approved: false, optionId: 'deny' });
    const late = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'Approve', shownControls: shown.cardData.pcControls });
    expect(notice(late.response)).toBe('Already decided (timed out)');
    await waitFor(() => contentOf(t.emulator.card(shown.outTrackId)).includes('⌛ Deny · timed out'), 'the timeout in the content');
  });

  it('foreign user: a polite refusal, the question stays open; the requester then decides', async () => {
    const t = await interactive({ mode });
    const card = t.open('u_ann');
    const decision = card.requestApproval({ prompt: 'Merge?' });
    const shown = await t.shown('Approve');
    const refused = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_eve', button: 'Approve' });
    expect(refused.cardUpdated).toBe(false);
    expect(notice(refused.response)).toBe('Sorry, only the requester or the allowed users can decide this one');
    expect(card.status).toBe('waiting');
    await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_ann', button: 'Approve' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'u_ann' } });
  });

  it('double click: the first wins, the second hears who decided', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Ship it?' });
    const shown = await t.shown('Approve');
    const first = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'Deny', shownControls: shown.cardData.pcControls });
    const second = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_eve', button: 'Approve', shownControls: shown.cardData.pcControls });
    expect(notice(first.response)).toBe('Sent: Deny');
    expect(notice(second.response)).toBe('Already decided by u_bob');
    await expect(decision).resolves.toMatchObject({ optionId: 'deny', by: { id: 'u_bob' } });
  });

  it('retried callback: the same delivery is answered again but the decision reaches the agent once', async () => {
    const t = await interactive({ mode });
    const card = t.open();
    const decisions: unknown[] = [];
    void card.requestApproval({ prompt: 'Deploy?' }).then((d) => decisions.push(d));
    const shown = await t.shown('Approve');
    const first = await click(t.emulator, { outTrackId: shown.outTrackId, user: 'u_bob', button: 'Approve' });
    const again = await t.emulator.retryCallback(first.messageId!);
    expect(notice(again.response)).toBe(notice(first.response));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(decisions).toHaveLength(1);
  });

  it('stale control: the Stop button of an earlier run, still shown by a client, does nothing', async () => {
    const t = await interactive({ mode });
    const first = t.open();
    const stops: string[] = [];
    first.onStop((user) => void stops.push(user.id));
    const old = await t.shown('⏹ Stop');
    first.complete('done');
    await first.finalDelivery;
    const second = t.open();
    second.onStop((user) => void stops.push(user.id));
    await waitFor(() => t.emulator.cards().length === 2, 'the second card');
    const stale = await click(t.emulator, { outTrackId: old.outTrackId, user: 'u_bob', button: '⏹ Stop', shownControls: old.cardData.pcControls });
    expect(stale.cardUpdated).toBe(false);
    expect(notice(stale.response)).toMatch(/earlier run or turn|已结束的运行或轮次/);
    expect(stops).toEqual([]);
    expect(second.status).toBe('running');
  });

  it('callbacks not configured: the card shows the reply to type, and the emulator refuses a click as DingTalk sends nothing', async () => {
    const t = await interactive({ callbacks: false });
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const shown = await waitFor(() => t.emulator.cards().find((c) => contentOf(c).includes('/approve')), 'the text reply');
    expect(contentOf(shown)).toMatch(/Reply: `\/approve [0-9A-F]{4}`（Approve） \/ `\/deny [0-9A-F]{4}`（Deny）/);
    const clicked = await t.emulator.click({ outTrackId: shown.outTrackId, user: 'u_bob', button: 'Approve', shownControls: '{"buttons":[{"id":"a","text":"Approve","params":{}}]}' });
    expect(clicked).toEqual({ cardUpdated: false, error: 'callbacks-not-configured' });
  });
});

describe('DingTalk HTTP card callbacks: signature and retries', () => {
  /** Registers `url` (and `apiSecret`) for the plugin's route key, as the plugin's start did. */
  async function register(emulator: DingTalkEmulator, url: string, apiSecret: string) {
    const token = (await (await fetch(`${emulator.baseUrl}/v1.0/oauth2/accessToken`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appKey: DEFAULT_DINGTALK_APP.appKey, appSecret: DEFAULT_DINGTALK_APP.appSecret }) })).json()) as { accessToken: string };
    const answer = await fetch(`${emulator.baseUrl}/v1.0/card/callbacks/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-acs-dingtalk-access-token': token.accessToken },
      body: JSON.stringify({ callbackRouteKey: 'progresscard', callbackUrl: url, apiSecret, forceUpdate: true }),
    });
    expect(answer.status).toBe(200);
  }

  it('a callback signed with another secret is refused (401) on every attempt and decides nothing', async () => {
    const t = await interactive({ mode: 'http' });
    const card = t.open();
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const shown = await t.shown('Approve');
    const url = await waitFor(() => listeningUrl(t.emulator), 'the registered callback URL');
    await register(t.emulator, url, 'not-the-secret');
    const forged = await t.emulator.click({ outTrackId: shown.outTrackId, user: 'u_bob', button: 'Approve' });
    expect(forged).toMatchObject({ cardUpdated: false, error: 'http-error', status: 401, attempts: 3 });
    expect(card.status).toBe('waiting');
  });

  it('an answer lost on the way back (the app decided, DingTalk saw a 502) is retried with the same body: the agent gets the decision once', async () => {
    const t = await interactive({ mode: 'http' });
    const card = t.open();
    const decisions: unknown[] = [];
    void card.requestApproval({ prompt: 'Deploy?' }).then((d) => decisions.push(d));
    const shown = await t.shown('Approve');
    const target = await waitFor(() => listeningUrl(t.emulator), 'the registered callback URL');
    // A proxy in front of the app that passes every request on but loses the first answer.
    let forwarded = 0;
    const proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(['content-type', 'timestamp', 'sign'].flatMap((h) => (request.headers[h] ? [[h, String(request.headers[h])]] : [])));
      const answer = await fetch(target, { method: 'POST', headers, body: Buffer.concat(chunks) });
      forwarded += 1;
      response.writeHead(forwarded === 1 ? 502 : answer.status, { 'content-type': 'application/json' });
      response.end(forwarded === 1 ? '{}' : await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      await register(t.emulator, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`, API_SECRET);
      const clicked = await t.emulator.click({ outTrackId: shown.outTrackId, user: 'u_bob', button: 'Approve' });
      // The retry is answered from memory: the same notice, no card change (the first answer's change was lost with it; the core's own update carries it).
      expect(clicked).toMatchObject({ status: 200, attempts: 2 });
      expect(notice(clicked.response)).toBe('Sent: Approve');
      expect(forwarded).toBe(2);
      await waitFor(() => decisions.length === 1, 'the decision');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(decisions).toHaveLength(1);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

/** The callback URL the plugin registered (the emulator's record of the register call). */
function listeningUrl(emulator: DingTalkEmulator): string | undefined {
  const call = emulator.calls({ route: 'card.callbacks.register' }).find((c) => c.outcome === 'accepted');
  return (call?.request as { callbackUrl?: string } | undefined)?.callbackUrl;
}
