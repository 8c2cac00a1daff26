import * as lark from '@larksuiteoapi/node-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeishuMessageSnapshot } from '@progresscard/emulator';
import { acceptedCards, harness, notOlder, progressOf, textOf, type Harness } from './harness.js';

/** The distinct running durations (`执行中 · N 秒`) of the tool line in the cards the emulator accepted. */
function runningDurations(message: FeishuMessageSnapshot | undefined): Set<string> {
  if (message === undefined) return new Set();
  return new Set(acceptedCards(message).map((c) => /执行中 · (\d+) 秒/.exec(textOf(c, 'tools') ?? '')?.[1]).filter((d): d is string => d !== undefined));
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Refactor parser', model: 'gpt-x' },
  { at: 10, type: 'round.started', round: 1 },
  { at: 20, type: 'thinking.delta', text: 'Run the tests first.' },
  { at: 30, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
  { at: 10_000, type: 'tool.finished', callId: 'c1', summary: '212 passed' },
  { at: 10_100, type: 'answer.delta', text: 'All tests pass. ' },
  { at: 10_300, type: 'answer.delta', text: 'The parser now accepts trailing commas.' },
  { at: 10_350, type: 'usage', inputTokens: 1200, outputTokens: 300 },
  { at: 10_400, type: 'run.completed' },
];

describe('plugin ↔ emulator through the official SDK over loopback', () => {
  it('a full run: one card from start to the completed state', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('feishu');
    // The tool runs until the ticker has refreshed its duration twice (a condition, not a wall-clock
    // window a busy machine can miss), then the run goes on.
    await h.play(card, RUN.slice(0, 4));
    await vi.waitFor(() => expect(runningDurations(h!.emulator.messages()[0]).size).toBeGreaterThanOrEqual(2), { timeout: 60_000, interval: 50 });
    await h.play(card, RUN.slice(4));
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    const message = messages[0]!;
    expect(final.message!.id).toBe(message.messageId);
    expect(message).toMatchObject({ chatId: 'oc_team', msgType: 'interactive', state: 'live' });
    expect(message.uuid).toBeDefined();
    expect(message.history.every((c) => c.outcome === 'accepted')).toBe(true);
    expect(message.card).toMatchObject({ schema: '2.0', config: { update_multi: true }, header: { template: 'green', subtitle: { content: '已完成' }, title: { content: 'Refactor parser' } } });
    expect(textOf(message.card, 'answer')).toBe('All tests pass. The parser now accepts trailing commas.');
    expect(textOf(message.card, 'tools')).toBe('- ✅ shell: `npm test`（完成 · 212 passed）');
    expect(textOf(message.card, 'footer')).toMatch(/^<font color='grey'>10 秒 · gpt-x · 输入 1.2k \/ 输出 300 · \d\d:\d\d<\/font>$/);
    // the card went through running states first, and never backwards
    const cards = acceptedCards(message);
    expect(cards.length).toBeGreaterThanOrEqual(2);
    expect((cards[0] as { header: { template: string } }).header.template).toBe('blue');
    for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
    // a running tool's duration was refreshed by the ticker while it ran
    expect(runningDurations(message).size).toBeGreaterThanOrEqual(2); // e.g. 3 秒, 6 秒, 9 秒
    expect(h.logger.lines.join('\n')).not.toContain(h.appSecret);
  });

  it('fetches a new tenant_access_token after the emulator revokes it, and finishes the card', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, RUN.slice(0, 4));
    await h.until(5000);
    expect(h.emulator.revokeTokens()).toBe(1);
    await h.play(card, RUN.slice(4));
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const tokens = h.emulator.tokens();
    expect(tokens.map((t) => t.state)).toEqual(['revoked', 'active']);
    const rejected = h.emulator.calls({ outcome: 'rejected' });
    expect(rejected.map((c) => c.code)).toEqual([99991663]);
    expect(textOf(h.emulator.messages()[0]!.card, 'answer')).toBe('All tests pass. The parser now accepts trailing commas.');
    const log = h.logger.lines.join('\n');
    for (const t of tokens) expect(log).not.toContain(t.token);
    expect(log).not.toContain(h.appSecret);
  });

  it('replies in a thread when configured, and posts into the chat when the message it replies to is gone', async () => {
    h = await harness({ scale: 10 });
    const app = h.emulator.apps[0]!;
    const client = new lark.Client({ appId: app.appId, appSecret: app.appSecret, domain: h.emulator.baseUrl, cache: new lark.DefaultCache(), logger: { error() {}, warn() {}, info() {}, debug() {}, trace() {} } });
    const question = await client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'text', content: '{"text":"fix the parser"}' } });
    const parent = question.data!.message_id!;
    const card = h.cards.open('feishu', { replyToMessageId: parent, replyInThread: true, receiveId: 'oc_team' });
    await h.play(card, [RUN[0]!, { at: 100, type: 'run.completed', answer: 'Done.' }]);
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    const reply = h.emulator.message((await card.finalDelivery).message!.id)!;
    expect(reply).toMatchObject({ parentId: parent, rootId: parent, chatId: 'oc_team' });
    expect(reply.threadId).toMatch(/^omt_/);

    h.emulator.recall(parent);
    const second = h.cards.open('feishu', { replyToMessageId: parent, receiveId: 'oc_team' });
    await h.play(second, [{ ...RUN[0]!, at: 200 }, { at: 300, type: 'run.completed', answer: 'Again.' }]);
    const posted = h.emulator.message((await second.finalDelivery).message!.id)!;
    expect(posted.parentId).toBeUndefined();
    expect(textOf(posted.card, 'answer')).toBe('Again.');
  });
});
