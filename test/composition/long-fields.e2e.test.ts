/**
 * Single-line fields of any length (a 50 000-character model name, 5 000-character tool names, a
 * 200 000-character title) on all three channels over their emulators: each renderer cuts them to
 * one short line, so the first final is the rich card, accepted, with the answer on it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import {
  DEFAULT_DINGTALK_APP,
  DEFAULT_SLACK_WORKSPACE,
  startDingTalkEmulator,
  startFeishuEmulator,
  startSlackEmulator,
  type DingTalkEmulator,
  type FeishuEmulator,
  type SlackEmulator,
} from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';

let emulators: { feishu: FeishuEmulator; dingtalk: DingTalkEmulator; slack: SlackEmulator } | undefined;
let cards: ProgressCards | undefined;

afterEach(async () => {
  await cards?.shutdown();
  await Promise.all([emulators?.feishu.close(), emulators?.dingtalk.close(), emulators?.slack.close()]);
});

const MODEL = 'm'.repeat(50_000);

describe('single-line fields of any length', () => {
  it('are cut to one short line on every channel: the first final is the rich card, with the answer', async () => {
    emulators = {
      feishu: await startFeishuEmulator({ apps: [{ appId: 'cli_long', appSecret: 'long-secret' }] }),
      dingtalk: await startDingTalkEmulator(),
      slack: await startSlackEmulator(),
    };
    cards = createProgressCards({
      logger: silentLogger,
      env: {},
      channels: [
        feishu({ appId: 'cli_long', appSecret: 'long-secret', domain: emulators.feishu.baseUrl, receiveId: 'oc_team' }),
        dingtalk({ appKey: DEFAULT_DINGTALK_APP.appKey, appSecret: DEFAULT_DINGTALK_APP.appSecret, cardTemplateId: 't.schema', target: { type: 'group', openConversationId: 'cidLong==' }, baseUrl: emulators.dingtalk.baseUrl }),
        slack({ botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: emulators.slack.apiUrl }),
      ],
    });
    const runs = ['feishu', 'dingtalk', 'slack'].map((id) => {
      const card = cards!.open(id, undefined, { locale: 'en' });
      card.push({ type: 'run.started', title: 'T'.repeat(200_000), model: MODEL });
      for (let i = 0; i < 30; i++) {
        card.push({ type: 'tool.started', callId: `c${i}`, name: 'n'.repeat(5000) });
        card.push({ type: 'tool.finished', callId: `c${i}` });
      }
      card.push({ type: 'answer.delta', text: 'The answer. END-OF-ANSWER' });
      card.push({ type: 'run.completed' });
      return card.finalDelivery;
    });
    const [feishuFinal, dingtalkFinal, slackFinal] = await Promise.all(runs);
    for (const final of [feishuFinal, dingtalkFinal, slackFinal]) expect(final).toMatchObject({ ok: true, status: 'completed' });

    expect(emulators.feishu.calls({ outcome: 'rejected' })).toEqual([]);
    const message = emulators.feishu.messages()[0]!;
    // The rich card (the plain fallback has no header), with the answer and a short footer naming the model.
    expect(message.card).toMatchObject({ header: { template: 'green' } });
    const shown = JSON.stringify(message.card);
    expect(shown).toContain('END-OF-ANSWER');
    expect(shown).toMatch(/m{20,80}…/);
    expect(shown).not.toContain('m'.repeat(200));

    const dingtalkContent = emulators.dingtalk.cards()[0]!.display.content;
    expect(dingtalkContent).toContain('END-OF-ANSWER');
    expect(dingtalkContent).not.toContain('m'.repeat(200));
    expect(dingtalkContent).not.toContain('n'.repeat(400));

    expect(emulators.slack.calls({ outcome: 'rejected' })).toEqual([]);
    // the last chat call (a completion-ping check of the chat's history may come after it)
    const slackText = JSON.stringify(emulators.slack.calls({ outcome: 'accepted' }).filter((call) => call.route.startsWith('chat.')).at(-1)?.request);
    expect(slackText).toContain('END-OF-ANSWER');
    expect(slackText).not.toContain('m'.repeat(200));
  });
});
