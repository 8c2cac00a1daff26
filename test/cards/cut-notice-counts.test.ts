/**
 * Every channel writes the counts of its "answer cut" notices grouped in thousands (`190,000`), in
 * English and Chinese alike: Slack's and DingTalk's notices once wrote `187000` beside Feishu's
 * `187,000`. The answer (190 000 characters) is longer than any channel shows with its continuation
 * parts, yet shorter than the core holds, so each notice is the channel's own.
 */
import { describe, expect, it } from 'vitest';
import { CardState, type Locale } from '@progresscard/core';
import type { CardRenderer } from '@progresscard/core/plugin';
import { DEFAULT_DISCORD_APP, DEFAULT_TELEGRAM_BOT } from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { discord } from '@progresscard/plugin-discord';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { teams } from '@progresscard/plugin-teams';
import { telegram } from '@progresscard/plugin-telegram';
import { wecom } from '@progresscard/plugin-wecom';

const RENDERERS: Record<string, () => CardRenderer<unknown>> = {
  feishu: () => feishu({ appId: 'cli_counts', appSecret: 'counts', receiveId: 'oc_counts' }, { env: {} }).renderer as CardRenderer<unknown>,
  dingtalk: () =>
    dingtalk({ appKey: 'counts', appSecret: 'counts', cardTemplateId: 'counts.schema', target: { type: 'group', openConversationId: 'cidCounts==' } }, { env: {} })
      .renderer as CardRenderer<unknown>,
  slack: () => slack({ botToken: 'xoxb-counts', channel: 'C0COUNTS' }, { env: {} }).renderer as CardRenderer<unknown>,
  telegram: () => telegram({ botToken: DEFAULT_TELEGRAM_BOT.botToken, chatId: DEFAULT_TELEGRAM_BOT.privateChat }, { env: {} }).renderer as CardRenderer<unknown>,
  discord: () => discord({ botToken: DEFAULT_DISCORD_APP.botToken, channelId: DEFAULT_DISCORD_APP.channel }, { env: {} }).renderer as CardRenderer<unknown>,
  wecom: () => wecom({ token: 'progresscardCounts', encodingAESKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', botId: 'aib_counts' }, { env: {} }).renderer as CardRenderer<unknown>,
  teams: () =>
    teams({ appId: 'counts-app', appPassword: 'counts', serviceUrl: 'https://smba.example.test/teams/', conversationId: '19:counts@thread.v2' }, { env: {} })
      .renderer as CardRenderer<unknown>,
};

/** The counts in a channel's cut notices: the number before "characters"/"bytes" (or "of"), and before 个字符/字节/字 or "/". */
const COUNTS: Record<Locale, RegExp> = {
  en: /\d[\d,]*(?= (?:more )?(?:characters|bytes)| of \d)/g,
  'zh-CN': /\d[\d,]*(?= ?(?:个字符|字节|字|\/))/g,
};

function drawnText(make: () => CardRenderer<unknown>, locale: Locale): string {
  const at = 1_700_000_000_000;
  const state = new CardState({ startedAt: at, locale });
  state.apply({ type: 'run.started', title: 'Long answer' }, at);
  state.apply({ type: 'run.completed', answer: 'word '.repeat(38_000) }, at);
  const view = state.view(at);
  const renderer = make();
  return JSON.stringify([renderer.render(view), renderer.renderContinuations?.(view) ?? []]);
}

describe('cut notices write counts grouped in thousands on every channel', () => {
  for (const [channel, make] of Object.entries(RENDERERS)) {
    for (const locale of ['en', 'zh-CN'] as const) {
      it(`${channel} (${locale})`, () => {
        const counts = drawnText(make, locale).match(COUNTS[locale]) ?? [];
        const large = counts.filter((count) => count.replaceAll(',', '').length >= 4);
        expect(large.length).toBeGreaterThan(0);
        for (const count of large) expect(count).toMatch(/^\d{1,3}(?:,\d{3})+$/);
      });
    }
  }
});
