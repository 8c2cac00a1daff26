/**
 * Several apps per channel with the bundled plugins: each app's budget keys name the app, so two apps
 * of a pool never share a window (a key shared by two apps would halve each app's rate); and the
 * environment convention of `appsFromEnv` (app n's variables carry the suffix `_n`).
 */
import { describe, expect, it } from 'vitest';
import { appPool, appsFromEnv, MissingEnvError, resolveChannelSettings, silentLogger, type BudgetedCall, type ChannelPlugin } from '@progresscard/core';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { discord } from '@progresscard/plugin-discord';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { teams } from '@progresscard/plugin-teams';
import { telegram } from '@progresscard/plugin-telegram';
import { wecom } from '@progresscard/plugin-wecom';

/** Two apps of each bundled channel, differing only in their credentials. */
const TWO_APPS: Record<string, () => ChannelPlugin[]> = {
  feishu: () => ['cli_a', 'cli_b'].map((appId) => feishu({ appId, appSecret: 'secret', receiveId: 'oc_1' }, { env: {} })),
  dingtalk: () => ['ding_a', 'ding_b'].map((appKey) => dingtalk({ appKey, appSecret: 'secret', cardTemplateId: 't.schema', target: { type: 'group', openConversationId: 'cid' } }, { env: {} })),
  slack: () => ['xoxb-a', 'xoxb-b'].map((botToken) => slack({ botToken, channel: 'C01' }, { env: {} })),
  telegram: () => ['111:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '222:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'].map((botToken) => telegram({ botToken, chatId: -1001 }, { env: {} })),
  discord: () => ['bench.discord.bot-token-000a', 'bench.discord.bot-token-000b'].map((botToken) => discord({ botToken, channelId: '1250000000000000100' }, { env: {} })),
  teams: () =>
    ['11111111-1111-1111-1111-111111111111', '22222222-2222-2222-2222-222222222222'].map((appId) =>
      teams({ appId, appPassword: 'secret', tenantId: 't', conversationId: '19:abc@thread.v2', serviceUrl: 'https://smba.trafficmanager.net/teams/' }, { env: {} }),
    ),
  wecom: () => ['a', 'b'].map((n) => wecom({ token: `token${n}`, encodingAESKey: 'a'.repeat(43), port: 0 }, { env: {} })),
};

/**
 * Keys two apps share on purpose: Feishu's 5 QPS per group is "shared by all bots in that group"
 * and per message (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create);
 * Slack's one post a second is per channel (https://api.slack.com/methods/chat.postMessage#rate_limiting).
 */
const SHARED_BY_APPS = ['feishu:receiver:', 'feishu:message:', 'slack:channel:'];

const CALLS: readonly BudgetedCall[] = [
  { kind: 'send', target: undefined },
  { kind: 'update', target: undefined, message: { id: 'm1' } },
];

/** The keys a call of `app` draws from (the channel id when the plugin gives no `budgetKeys`). */
function keysOf(app: ChannelPlugin, call: BudgetedCall): string[] {
  const settings = resolveChannelSettings(app, {}, silentLogger);
  return app.budgetKeys ? app.budgetKeys(call, settings).map((key) => key.key) : [app.budgetKey ?? app.id];
}

describe('several apps per channel with the bundled plugins', () => {
  for (const [channel, twoApps] of Object.entries(TWO_APPS)) {
    it(`${channel}: the budget keys of a call name the app, but for limits the platform counts per chat or message`, () => {
      const [first, second] = appPool(twoApps()).apps;
      for (const call of CALLS) {
        const [a, b] = [keysOf(first!, call), keysOf(second!, call)];
        expect(a.length).toBeGreaterThan(0);
        // The first key is the app-wide one (the channel-wide pause applies to it).
        expect(a[0]).not.toBe(b[0]);
        expect(a.filter((key) => b.includes(key) && !SHARED_BY_APPS.some((prefix) => key.startsWith(prefix)))).toEqual([]);
      }
    });
  }

  it('appsFromEnv reads app n from the variables with the suffix _n, optional settings falling back to app 1', () => {
    const env = {
      FEISHU_APP_ID: 'cli_a',
      FEISHU_APP_SECRET: 'secret-a',
      FEISHU_CHAT_ID: 'oc_1',
      FEISHU_DOMAIN: 'lark',
      FEISHU_APP_ID_2: 'cli_b',
      FEISHU_APP_SECRET_2: 'secret-b',
      FEISHU_CHAT_ID_2: 'oc_1',
      // No _3: the list ends at app 2 even though app 4 is set.
      FEISHU_APP_ID_4: 'cli_d',
    };
    const apps = appsFromEnv(feishu, env);
    expect(apps.map((app) => app.config.appId)).toEqual(['cli_a', 'cli_b']);
    expect(apps.map((app) => app.config.domain)).toEqual(['lark', 'lark']);
    expect(JSON.stringify(apps)).not.toContain('secret-b');
  });

  it('appsFromEnv names the variables app n lacks; a secret never falls back to app 1', () => {
    const env = { FEISHU_APP_ID: 'cli_a', FEISHU_APP_SECRET: 'secret-a', FEISHU_CHAT_ID: 'oc_1', FEISHU_APP_ID_2: 'cli_b' };
    expect(() => appsFromEnv(feishu, env)).toThrow(MissingEnvError);
    expect(() => appsFromEnv(feishu, env)).toThrow('FEISHU_APP_SECRET_2, FEISHU_CHAT_ID_2');
  });

  it('appsFromEnv names the suffixed variable a bad value came from', () => {
    const env = { FEISHU_APP_ID: 'cli_a', FEISHU_APP_SECRET: 's', FEISHU_CHAT_ID: 'oc_1', FEISHU_APP_ID_2: 'cli_b', FEISHU_APP_SECRET_2: 's', FEISHU_CHAT_ID_2: 'oc_1', FEISHU_DOMAIN_2: 'ftp://x' };
    expect(() => appsFromEnv(feishu, env)).toThrow('FEISHU_DOMAIN_2');
  });
});
