/**
 * The card's language per channel, over the Feishu and Slack emulators (real loopback HTTP): the
 * README's English product sample, run as a new user would (no locale given), reads English on
 * Slack and Chinese on Feishu; a run can choose (`open({ locale })`), and `auto` follows the run's text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { DEFAULT_SLACK_WORKSPACE, startFeishuEmulator, startSlackEmulator, type FeishuEmulator, type SlackEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';

let feishuEmulator: FeishuEmulator | undefined;
let slackEmulator: SlackEmulator | undefined;
let cards: ProgressCards | undefined;

afterEach(async () => {
  await cards?.shutdown();
  await feishuEmulator?.close();
  await slackEmulator?.close();
});

async function compose(): Promise<ProgressCards> {
  feishuEmulator = await startFeishuEmulator({ apps: [{ appId: 'cli_locale', appSecret: 'locale-secret' }] });
  slackEmulator = await startSlackEmulator();
  cards = createProgressCards({
    logger: silentLogger,
    env: {},
    channels: [
      feishu({ appId: 'cli_locale', appSecret: 'locale-secret', domain: feishuEmulator.baseUrl, receiveId: 'oc_team', debounceMs: 50 }),
      slack({ botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: slackEmulator.apiUrl, debounceMs: 50 }),
    ],
  });
  return cards;
}

/** The README's "Use it in your agent product" sample, as written there. */
async function readmeSample(card: ProgressCard): Promise<string> {
  card.start({ title: 'Fix the flaky test', model: 'claude-sonnet' });
  card.roundStarted(1);
  card.toolStarted('call_1', 'shell', '{"command":"npm test"}');
  card.toolFinished('call_1', '212 passed');
  card.answer('All tests pass.');
  card.usage({ inputTokens: 12_800, outputTokens: 1_100, contextTokens: 68_000, contextWindow: 200_000 });
  card.complete();
  const final = await card.finalDelivery;
  expect(final).toMatchObject({ ok: true, status: 'completed' });
  return final.message!.id;
}

const feishuCard = (id: string) => JSON.stringify(feishuEmulator!.message(id)!.card);
const slackCard = (id: string) => JSON.stringify(slackEmulator!.message(id)!.blocks);

describe('card language per channel', () => {
  it("the README's English sample reads English on Slack and Chinese on Feishu by default", { timeout: 30_000 }, async () => {
    const cards = await compose();
    const [onSlack, onFeishu] = await Promise.all([readmeSample(cards.open('slack')), readmeSample(cards.open('feishu'))]);
    const slackText = slackCard(onSlack);
    expect(slackText).toContain('Completed');
    // Slack draws each call as a task card, whose title is plain text (no code span).
    expect(slackText).toContain('shell: npm test (done · 212 passed)');
    expect(slackText).toMatch(/\b0s\b/);
    for (const chinese of ['已完成', '工具调用', '0 秒', '完成']) expect(slackText).not.toContain(chinese);
    const feishuText = feishuCard(onFeishu);
    expect(feishuText).toContain('已完成');
    expect(feishuText).toContain('0 秒');
    expect(feishuText).not.toContain('Completed');
  });

  it('open({ locale }) sets it for one run; auto follows the run title, else the answer', { timeout: 30_000 }, async () => {
    const cards = await compose();
    const english = await readmeSample(cards.open('feishu', undefined, { locale: 'en' }));
    expect(feishuCard(english)).toContain('Completed');

    const chineseOnSlack = cards.open('slack', undefined, { locale: 'auto' });
    chineseOnSlack.start({ title: '修复不稳定的测试' });
    chineseOnSlack.toolStarted('c1', 'shell', '{"command":"npm test"}');
    chineseOnSlack.toolFinished('c1', '212 passed');
    chineseOnSlack.complete('所有测试都通过了。');
    const zh = (await chineseOnSlack.finalDelivery).message!.id;
    expect(slackCard(zh)).toContain('已完成');
    expect(slackCard(zh)).toContain('shell: npm test（完成 · 212 passed）');

    const untitled = cards.open('feishu', undefined, { locale: 'auto' });
    untitled.complete('All tests pass after pinning the clock in the flaky test.');
    expect(feishuCard((await untitled.finalDelivery).message!.id)).toContain('Completed');
  });
});
