import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ClickHandler, type ClickReply, type ControlClick, type ProgressCard } from '../../src/index.js';
import { settle } from '../helpers.js';

/** A memory channel whose "callbacks" hand the test the core's click handler. */
function setupInteractive(options: { requester?: string } = {}) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  // Without a shared store every click is decided in this process, so the reply is synchronous.
  let onClick: ((click: ControlClick) => ClickReply) | undefined;
  let stopped = 0;
  const channel = Object.assign(memoryChannel(), {
    interaction: {
      start: async (handler: ClickHandler) => {
        onClick = handler as (click: ControlClick) => ClickReply;
      },
      stop: async () => {
        stopped += 1;
      },
    },
  });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  let delivery = 0;
  const open = (locale: 'en' | 'zh-CN' = 'en') => {
    const card = cards.open('memory', undefined, { locale, requester: options.requester ? { id: options.requester, name: 'Ann' } : undefined });
    card.start({ title: 'Deploy' });
    return card;
  };
  /** Clicks option `optionId` of the card's open question as `user`. */
  const click = (card: ProgressCard, user: string, fields: Partial<ControlClick> = {}) => {
    const controls = card.view().controls;
    return onClick!({
      cardId: controls?.cardId ?? 'none',
      interactionId: controls?.pending?.id ?? 'none',
      user: { id: user, name: user.toUpperCase() },
      deliveryId: `d${++delivery}`,
      ...fields,
    });
  };
  return { channel, cards, open, click, onClick: () => onClick!, stopped: () => stopped };
}

afterEach(() => vi.useRealTimers());

describe('interactive cards', () => {
  it('approve: buttons on the waiting card, the click resolves the decision and the card shows who approved', async () => {
    const t = setupInteractive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Run `rm -rf dist`?' });
    await settle(10);
    const view = card.view();
    expect(view.status).toBe('waiting');
    expect(view.controls?.pending?.options.map((o) => o.label)).toEqual(['Approve', 'Deny']);
    const reply = t.click(card, 'ou_bob', { optionId: 'approve' });
    expect(reply).toMatchObject({ outcome: 'decided', tone: 'success', repeated: false });
    expect(reply.view?.status).toBe('running');
    expect(reply.view?.controls).toMatchObject({ pending: undefined, stop: false });
    expect(reply.view?.decisions).toEqual([expect.objectContaining({ answer: 'Approve', by: 'OU_BOB', tone: 'positive' })]);
    await expect(decision).resolves.toMatchObject({ optionId: 'approve', approved: true, timedOut: false, by: { id: 'ou_bob' } });
    await settle();
    // the decision reached the chat through the core's normal delivery too
    const last = t.channel.calls.at(-1)!;
    expect(last.payload.status).toBe('running');
  });

  it('deny: the decision says not approved and the card shows it as negative', async () => {
    const t = setupInteractive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Push to main?' });
    t.click(card, 'ou_bob', { optionId: 'deny' });
    await expect(decision).resolves.toMatchObject({ optionId: 'deny', approved: false, timedOut: false });
    expect(card.view().decisions?.[0]).toMatchObject({ answer: 'Deny', tone: 'negative' });
  });

  it('answer: a choice button or typed free text', async () => {
    const t = setupInteractive();
    const card = t.open();
    const choice = card.ask({ prompt: 'Which branch?', choices: ['main', 'dev'] });
    expect(card.view().controls?.pending).toMatchObject({ freeText: false, options: [{ label: 'main' }, { label: 'dev' }] });
    t.click(card, 'ou_bob', { optionId: 'choice_2' });
    await expect(choice).resolves.toMatchObject({ text: 'dev', optionId: 'choice_2', timedOut: false });

    const free = card.ask({ prompt: 'Commit message?' });
    expect(card.view().controls?.pending?.freeText).toBe(true);
    expect(t.click(card, 'ou_bob', { text: '   ' }).outcome).toBe('invalid');
    expect(t.click(card, 'ou_bob', { text: ' fix: parser ' }).outcome).toBe('decided');
    await expect(free).resolves.toMatchObject({ text: 'fix: parser', timedOut: false });
    expect(card.view().decisions?.at(-1)).toMatchObject({ answer: 'fix: parser', tone: 'positive' });
  });

  it('stop: the handler hears who stopped and the card ends cancelled by that user', async () => {
    const t = setupInteractive();
    const card = t.open();
    const stopper = vi.fn();
    card.onStop(stopper);
    expect(card.view().controls).toMatchObject({ stop: true });
    const cardId = card.view().controls!.cardId;
    const reply = t.click(card, 'ou_bob', { interactionId: 'stop', optionId: 'stop' });
    expect(reply.outcome).toBe('stopped');
    expect(reply.view).toMatchObject({ status: 'cancelled', error: 'Stopped by OU_BOB' });
    await settle();
    expect(stopper).toHaveBeenCalledWith({ id: 'ou_bob', name: 'OU_BOB' });
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
    // a second Stop click on the same card hears it is done
    expect(t.click(card, 'ou_eve', { cardId, interactionId: 'stop' })).toMatchObject({ outcome: 'already-decided', message: 'Already decided by OU_BOB' });
  });

  it('timeout: denies by default and shows the timeout on the card', async () => {
    const t = setupInteractive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Delete the bucket?', timeoutMs: 60_000 });
    await settle(59_000);
    expect(card.view().status).toBe('waiting');
    await settle(2_000);
    await expect(decision).resolves.toMatchObject({ optionId: 'deny', approved: false, timedOut: true });
    expect(card.view().decisions?.[0]).toMatchObject({ tone: 'timeout', answer: 'Deny' });
    expect(card.view().controls?.pending).toBeUndefined();
    // a click after the timeout hears it was decided already
    const reply = t.onClick()({ cardId: 'any', interactionId: (await decision).interactionId, optionId: 'approve', user: { id: 'ou_bob' }, deliveryId: 'late' });
    expect(reply).toMatchObject({ outcome: 'already-decided', message: 'Already decided (timed out)' });
  });

  it('foreign user: only the requester or allowedUsers decide; others get a polite refusal and the question stays open', async () => {
    const t = setupInteractive({ requester: 'ou_ann' });
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Deploy?', allowedUsers: ['ou_lead'] });
    const refused = t.click(card, 'ou_eve', { optionId: 'approve' });
    expect(refused).toMatchObject({ outcome: 'not-allowed', tone: 'warning', message: expect.stringMatching(/^Sorry, only the requester/) });
    expect(refused.view).toBeUndefined();
    expect(card.view().status).toBe('waiting');
    expect(t.click(card, 'ou_lead', { optionId: 'approve' }).outcome).toBe('decided');
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_lead' } });
  });

  it('double click: the first wins, the second hears who decided', async () => {
    const t = setupInteractive();
    const card = t.open();
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    const pending = card.view().controls!;
    const click = (user: string, optionId: string, deliveryId: string) =>
      t.onClick()({ cardId: pending.cardId, interactionId: pending.pending!.id, optionId, user: { id: user, name: user }, deliveryId });
    expect(click('ou_bob', 'deny', 'a').outcome).toBe('decided');
    expect(click('ou_eve', 'approve', 'b')).toMatchObject({ outcome: 'already-decided', message: 'Already decided by ou_bob' });
    await expect(decision).resolves.toMatchObject({ optionId: 'deny', by: { id: 'ou_bob' } });
  });

  it('retried callback: the same delivery gets the first reply and the decision is delivered once', async () => {
    const t = setupInteractive();
    const card = t.open();
    const resolvedEvents: unknown[] = [];
    const push = card.push.bind(card);
    card.push = (event: unknown) => {
      if ((event as { type?: string }).type === 'interaction.resolved') resolvedEvents.push(event);
      return push(event);
    };
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    const pending = card.view().controls!;
    const retried: ControlClick = { cardId: pending.cardId, interactionId: pending.pending!.id, optionId: 'approve', user: { id: 'ou_bob' }, deliveryId: 'evt-1' };
    const first = t.onClick()(retried);
    const again = t.onClick()(retried);
    expect(first).toMatchObject({ outcome: 'decided', repeated: false });
    expect(again).toMatchObject({ outcome: 'decided', repeated: true, message: first.message });
    expect(resolvedEvents).toHaveLength(1);
    await expect(decision).resolves.toMatchObject({ approved: true });
  });

  it('stale control: a click on an earlier run or turn does nothing', async () => {
    const t = setupInteractive();
    const first = t.open();
    first.onStop(() => undefined);
    const oldCardId = first.view().controls!.cardId;
    first.complete('done');
    const second = t.open();
    second.onStop(() => undefined);
    const stale = t.onClick()({ cardId: oldCardId, interactionId: 'stop', user: { id: 'ou_bob' }, deliveryId: 'x' });
    // the earlier card is unknown to the router now, so the toast uses the default language (zh-CN)
    expect(stale).toMatchObject({ outcome: 'stale', message: '该按钮来自已结束的运行或轮次，未执行任何操作' });
    expect(second.status).toBe('running');

    // card-per-turn: the Stop button of turn 1 does nothing once turn 2 has its own card
    const turns = t.cards.open('memory', undefined, { cardPer: 'turn', locale: 'en' });
    turns.roundStarted(1);
    turns.answer('first');
    turns.onStop(() => undefined);
    const turnOne = turns.view().controls!.cardId;
    turns.roundStarted(2);
    expect(turns.view().controls!.cardId).not.toBe(turnOne);
    expect(t.onClick()({ cardId: turnOne, interactionId: 'stop', user: { id: 'ou_bob' }, deliveryId: 'y' }).outcome).toBe('stale');
    expect(turns.status).toBe('running');
  });

  it('bad requests reject at once naming the field; a run that ends settles open questions without a click', async () => {
    const t = setupInteractive();
    const card = t.open();
    await expect(card.requestApproval({ prompt: '' })).rejects.toThrow(/prompt = ""/);
    await expect(card.requestApproval({ prompt: 'x', timeoutMs: -1 })).rejects.toThrow(/timeoutMs = -1/);
    await expect(card.requestApproval({ prompt: 'x', onTimeout: 'maybe' })).rejects.toThrow(/onTimeout = "maybe"/);
    const open = card.ask({ prompt: 'Name?' });
    card.fail('crashed');
    await expect(open).resolves.toMatchObject({ timedOut: true, text: '' });
    const shutdown = t.cards.shutdown();
    await settle(); // the final is paced by the budget: let fake time run
    await shutdown;
    expect(t.stopped()).toBe(1);
  });

  it('text replies (a channel without callbacks): `/approve CODE` and `/answer CODE text` decide like clicks', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const cards = createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {} });
    const card = cards.open('memory', undefined, { locale: 'en', requester: { id: 'ou_ann' } });
    card.start({ title: 'Deploy' });
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    const code = card.view().controls!.pending!.code;
    expect(code).toMatch(/^[0-9A-F]{4}$/);
    expect(await cards.reply('just chatting', { id: 'ou_ann' }, 'm0')).toBeUndefined();
    expect((await cards.reply(`/approve ${code}`, { id: 'ou_eve' }, 'm1'))?.outcome).toBe('not-allowed');
    expect((await cards.reply(`/approve ${code.toLowerCase()}`, { id: 'ou_ann' }, 'm2'))?.outcome).toBe('decided');
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_ann' } });
    expect((await cards.reply(`/approve ${code}`, { id: 'ou_ann' }, 'm2'))?.repeated).toBe(true);
    const answer = card.ask({ prompt: 'Tag?' });
    const askCode = card.view().controls!.pending!.code;
    expect((await cards.reply(`/answer ${askCode} v1.2.0`, { id: 'ou_ann' }, 'm3'))?.outcome).toBe('decided');
    await expect(answer).resolves.toMatchObject({ text: 'v1.2.0' });
    const shutdown = cards.shutdown();
    await settle(); // the final is paced by the budget: let fake time run
    await shutdown;
  });

  it('a card with progressive updates off cannot show buttons: questions time out at once (deny), with one warning', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const channel = memoryChannel({ switches: { progressive: false } });
    const cards = createProgressCards({ channels: [channel], logger, env: {} });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    await expect(card.requestApproval({ prompt: 'Deploy?' })).resolves.toMatchObject({ approved: false, timedOut: true, optionId: 'deny' });
    await expect(card.ask({ prompt: 'Tag?' })).resolves.toMatchObject({ text: '', timedOut: true });
    expect(warnings.filter((w) => w.includes('progressive updates are off'))).toHaveLength(1);
    card.complete('done');
    await cards.shutdown();
    expect(channel.calls.filter((c) => c.op === 'send')).toHaveLength(1);
  });

  it('callbacks that cannot start: the card falls back to the reply to type (also for later questions) and a text reply still decides', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const errors: string[] = [];
    const channel = Object.assign(memoryChannel(), {
      interaction: {
        start: async () => {
          throw new Error('the platform refused the long connection (code 1000040350)');
        },
        stop: async () => undefined,
      },
    });
    const cards = createProgressCards({ channels: [channel], logger: { ...silentLogger, error: (m) => void errors.push(m) }, env: {} });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    card.onStop(() => undefined);
    const decision = card.requestApproval({ prompt: 'Deploy?' });
    await settle(10);
    expect(card.view().controls).toMatchObject({ replyByText: true, pending: { options: [{ id: 'approve' }, { id: 'deny' }] } });
    expect(errors).toEqual(['channel memory: card callbacks could not start: the platform refused the long connection (code 1000040350)']);
    const code = card.view().controls!.pending!.code;
    expect(await cards.reply(`/approve ${code}`, { id: 'ou_bob' }, 'm1')).toMatchObject({ outcome: 'decided' });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: 'ou_bob' } });
    // The next question on the card is drawn as a reply to type at once.
    void card.ask({ prompt: 'Which region?', choices: ['eu-west'] });
    expect(card.view().controls).toMatchObject({ replyByText: true, pending: { prompt: 'Which region?' } });
    const shutdown = cards.shutdown();
    await settle();
    await shutdown;
  });
});
