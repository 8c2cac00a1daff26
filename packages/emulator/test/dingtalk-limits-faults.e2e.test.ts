import { afterEach, describe, expect, it } from 'vitest';
import {
  DingTalkEmulatorOptionError,
  FaultRuleError,
  DINGTALK_QPS_LIMIT_MESSAGE,
  createManualClock,
  startDingTalkEmulator,
  type DingTalkEmulator,
} from '../src/index.js';
import { call, groupCard, token } from './dingtalk-client.js';

let emulator: DingTalkEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const put = (e: DingTalkEmulator, t: string, outTrackId: string, content: string) =>
  call(e, 'PUT', '/v1.0/card/instances', { outTrackId, cardData: { cardParamMap: { msgContent: content } }, cardUpdateOptions: { updateCardDataByKey: true } }, t);

describe('DingTalk emulator: 20 QPS per app per API', () => {
  it('answers the 21st call within a second with 403 QpsLimitForAppkeyAndApi, per API, and frees up after the window', async () => {
    const clock = createManualClock(5_000_000);
    emulator = await startDingTalkEmulator({ clock });
    const t = await token(emulator);
    expect((await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('q'), t)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await put(emulator, t, 'q', `v${i}`)).status).toBe(200);
    const limited = await put(emulator, t, 'q', 'too many');
    expect(limited.status).toBe(403);
    expect(limited.body).toEqual({ requestid: expect.any(String), code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi', message: DINGTALK_QPS_LIMIT_MESSAGE });
    expect(emulator.card('q')!.cardData.msgContent).toBe('v19');
    // another API has its own budget
    expect((await call(emulator, 'PUT', '/v1.0/card/streaming', { outTrackId: 'q', guid: 'g', key: 'msgContent', content: 'x', isFull: true }, t)).status).toBe(200);
    clock.advance(1000);
    expect((await put(emulator, t, 'q', 'later')).status).toBe(200);
    expect(emulator.counts()['card.update']).toEqual({ calls: 22, accepted: 21, rejected: 1 });
  });

  it('counts a call in the window when it arrives, not when its slow answer leaves (as the gateway counts)', async () => {
    const clock = createManualClock(5_000_000);
    // One call a second per API, so that two calls show the window.
    emulator = await startDingTalkEmulator({ clock, rateLimit: [{ limit: 1, intervalMs: 1000 }] });
    const t = await token(emulator);
    expect((await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('s'), t)).status).toBe(200);
    const arrived = async (faultId: string) => {
      while ((emulator!.faults.list().find((rule) => rule.id === faultId)?.hits ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // A slow update arrives in a fresh window; a second later (on the emulator's clock) another arrives
    // while the first is still being answered: it is in a window of its own, and both pass.
    const slow = emulator.faults.add({ route: 'card.update', times: 1, latencyMs: 300 });
    const first = put(emulator, t, 's', 'one');
    await arrived(slow);
    clock.advance(1001);
    expect((await put(emulator, t, 's', 'two')).status).toBe(200);
    expect((await first).status).toBe(200);
    // The other way round: a slow update that arrives in a full window is refused though it is answered after it.
    clock.advance(60_000);
    expect((await put(emulator, t, 's', 'three')).status).toBe(200);
    clock.advance(500);
    const late = emulator.faults.add({ route: 'card.update', times: 1, latencyMs: 300 });
    const inFullWindow = put(emulator, t, 's', 'four');
    await arrived(late);
    clock.advance(1000);
    expect(await inFullWindow).toMatchObject({ status: 403, body: { code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi' } });
  });

  it('can be turned off and refuses a malformed limit naming the option', async () => {
    emulator = await startDingTalkEmulator({ rateLimit: false });
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('q'), t);
    for (let i = 0; i < 30; i++) expect((await put(emulator, t, 'q', `v${i}`)).status).toBe(200);
    await expect(startDingTalkEmulator({ rateLimit: [] })).rejects.toThrow(DingTalkEmulatorOptionError);
    await expect(startDingTalkEmulator({ apps: [{ appKey: 'k', appSecret: '' }] })).rejects.toThrow(/apps\[0\]\.appSecret = "<hidden>"/);
  });
});

describe('DingTalk emulator: fault injection and read-back', () => {
  it('answers the n-th update of one card with the injected status and body, with a requestid added', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('a'), t);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('b'), t);
    const id = emulator.faults.add({ route: 'card.update', key: 'a', nth: 2, respond: { status: 500, body: { code: 'system.busy', message: 'system.busy' } } });
    expect((await put(emulator, t, 'b', 'b1')).status).toBe(200);
    expect((await put(emulator, t, 'a', 'a1')).status).toBe(200);
    const failed = await put(emulator, t, 'a', 'a2');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ requestid: expect.any(String), code: 'system.busy', message: 'system.busy' });
    expect((await put(emulator, t, 'a', 'a3')).status).toBe(200);

    const card = emulator.card('a')!;
    expect(card.cardData.msgContent).toBe('a3');
    expect(card.history.map((h) => [h.route, h.outcome, h.status, h.code])).toEqual([
      ['card.createAndDeliver', 'accepted', 200, undefined],
      ['card.update', 'accepted', 200, undefined],
      ['card.update', 'rejected', 500, 'system.busy'],
      ['card.update', 'accepted', 200, undefined],
    ]);
    expect(card.history[2]!.faultId).toBe(id);
    expect(card.history[1]!.card!.cardData.msgContent).toBe('a1');
    expect(card.history[1]!.request).toMatchObject({ outTrackId: 'a', cardData: { cardParamMap: { msgContent: 'a1' } } });
    for (const h of card.history) expect(h.at).toBeGreaterThanOrEqual(h.receivedAt!);
  });

  it('answers every update inside a time window (F07: 403 QpsLimit from 1000 ms to 3000 ms)', async () => {
    const clock = createManualClock(0);
    emulator = await startDingTalkEmulator({ clock });
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('w'), t);
    emulator.setFaultOrigin(0);
    emulator.faults.add({
      route: 'card.update',
      window: { fromMs: 1000, toMs: 3000 },
      respond: { status: 403, body: { code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi' } },
    });
    const at = async (ms: number) => {
      clock.set(ms);
      return (await put(emulator!, t, 'w', `at ${ms}`)).status;
    };
    expect(await at(999)).toBe(200);
    expect(await at(1000)).toBe(403);
    expect(await at(2999)).toBe(403);
    expect(await at(3000)).toBe(200);
    expect(emulator.card('w')!.cardData.msgContent).toBe('at 3000');
    expect(emulator.calls({ route: 'card.update', outcome: 'rejected' }).map((c) => c.at)).toEqual([1000, 2999]);
  });

  it('delays calls by the injected latency and tracks how many ran at once per card', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('slow'), t);
    emulator.faults.add({ route: 'card.update', latencyMs: 150 });
    const started = Date.now();
    await Promise.all([put(emulator, t, 'slow', '1'), put(emulator, t, 'slow', '2')]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(emulator.card('slow')!.maxConcurrentCalls).toBe(2);
  });

  it('refuses a rule for an unknown route naming it', () => {
    return startDingTalkEmulator().then((e) => {
      emulator = e;
      expect(() => e.faults.add({ route: 'card.nope', nth: 1, respond: { status: 500 } })).toThrow(FaultRuleError);
    });
  });

  it('reports accepted changes to listeners', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    const seen: string[] = [];
    const stop = emulator.onChange((change) => seen.push(`${change.platform}:${change.kind}:${change.card.cardData.msgContent}`));
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('l', { msgContent: 'c' }), t);
    await put(emulator, t, 'l', 'u');
    await put(emulator, t, 'ghost', 'x'); // rejected: no change
    stop();
    await put(emulator, t, 'l', 'after');
    expect(seen).toEqual(['dingtalk:created:c', 'dingtalk:updated:u']);
  });
});
