/**
 * Each bundled channel's renderer, built from a config with made-up credentials and no environment
 * (rendering sends nothing): for tests and benches that draw one view on every channel. A fresh
 * renderer per call (renderers reuse the layout of the same view).
 */
import type { CardRenderer } from '@progresscard/core/plugin';
import { DEFAULT_DISCORD_APP, DEFAULT_TELEGRAM_BOT } from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { discord } from '@progresscard/plugin-discord';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { teams } from '@progresscard/plugin-teams';
import { telegram } from '@progresscard/plugin-telegram';
import { wecom } from '@progresscard/plugin-wecom';

const none = { env: {} };

export const RENDERERS: Record<string, () => CardRenderer<unknown>> = {
  feishu: () => feishu({ appId: 'cli_render', appSecret: 'render', receiveId: 'oc_render', timeZone: 'UTC' }, none).renderer as CardRenderer<unknown>,
  dingtalk: () =>
    dingtalk({ appKey: 'dingrender', appSecret: 'render', cardTemplateId: 'render.schema', target: { type: 'group', openConversationId: 'cidRender==' }, timeZone: 'UTC' }, none)
      .renderer as CardRenderer<unknown>,
  slack: () => slack({ botToken: 'xoxb-render', channel: 'C0RENDER' }, none).renderer as CardRenderer<unknown>,
  telegram: () => telegram({ botToken: DEFAULT_TELEGRAM_BOT.botToken, chatId: DEFAULT_TELEGRAM_BOT.privateChat }, none).renderer as CardRenderer<unknown>,
  discord: () => discord({ botToken: DEFAULT_DISCORD_APP.botToken, channelId: DEFAULT_DISCORD_APP.channel }, none).renderer as CardRenderer<unknown>,
  wecom: () => wecom({ token: 'progresscardRender', encodingAESKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', botId: 'aib_render' }, none).renderer as CardRenderer<unknown>,
  teams: () =>
    teams({ appId: 'render-app', appPassword: 'render', serviceUrl: 'https://smba.example.test/teams/', conversationId: '19:render@thread.v2' }, none)
      .renderer as CardRenderer<unknown>,
};
