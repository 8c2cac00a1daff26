import { describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';
import { memoryIO } from './helpers.js';

async function waitForText(read: () => string, pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; got:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('progresscard emulator', () => {
  it('serves every channel emulator with the printed credentials until Ctrl-C', async () => {
    const t = memoryIO();
    const run = main(['emulator', '--port', '0', '--preview-port', '0'], t.io);
    await waitForText(t.out, /Press Ctrl-C to stop/);
    const out = t.out();
    const feishuUrl = /Feishu \/ Lark\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    const dingtalkUrl = /DingTalk\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    const previewUrl = /Live preview\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1]!;
    const value = (name: string) => new RegExp(`${name}=(\\S+)`).exec(out)![1]!;

    const feishuToken = await fetch(`${feishuUrl}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: value('FEISHU_APP_ID'), app_secret: value('FEISHU_APP_SECRET') }),
    }).then((r) => r.json() as Promise<{ code: number; tenant_access_token?: string }>);
    expect(feishuToken.code).toBe(0);
    expect(feishuToken.tenant_access_token).toBeTruthy();

    const dingtalkToken = await fetch(`${dingtalkUrl}/v1.0/oauth2/accessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appKey: value('DINGTALK_APP_KEY'), appSecret: value('DINGTALK_APP_SECRET') }),
    }).then((r) => r.json() as Promise<{ accessToken?: string }>);
    expect(dingtalkToken.accessToken).toBeTruthy();

    const slackAuth = await fetch(`${value('SLACK_API_URL')}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${value('SLACK_BOT_TOKEN')}` },
    }).then((r) => r.json() as Promise<{ ok: boolean }>);
    expect(slackAuth.ok).toBe(true);

    const telegramMe = await fetch(`${value('TELEGRAM_API_ROOT')}/bot${value('TELEGRAM_BOT_TOKEN')}/getMe`).then((r) => r.json() as Promise<{ ok: boolean }>);
    expect(telegramMe.ok).toBe(true);

    const discordMe = await fetch(`${value('DISCORD_API_URL')}/users/@me`, { headers: { authorization: `Bot ${value('DISCORD_BOT_TOKEN')}` } });
    expect(discordMe.status).toBe(200);

    const state = (await fetch(`${previewUrl}api/state`).then((r) => r.json())) as { run: { phase: string }; panels: Array<{ id: string }> };
    expect(state.run.phase).toBe('emulator');
    const teamsForm = new URLSearchParams({ grant_type: 'client_credentials', client_id: value('TEAMS_APP_ID'), client_secret: value('TEAMS_APP_PASSWORD'), scope: 'https://api.botframework.com/.default' });
    const teamsToken = await fetch(`${value('TEAMS_LOGIN_URL')}/${value('TEAMS_TENANT_ID')}/oauth2/v2.0/token`, { method: 'POST', body: teamsForm }).then((r) => r.json() as Promise<{ access_token?: string }>);
    expect(teamsToken.access_token).toBeTruthy();

    expect(state.panels.map((p) => p.id)).toEqual(['feishu', 'dingtalk', 'slack', 'telegram', 'discord', 'wecom', 'teams']);

    t.abort();
    expect(await run).toBe(EXIT.ok);
    await expect(fetch(`${feishuUrl}/open-apis/auth/v3/tenant_access_token/internal`, { method: 'POST' })).rejects.toThrow();
  }, 30_000);
});

describe('progresscard emulator on a taken port', () => {
  it('says which port is taken and exits 2', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const t = memoryIO();
      expect(await main(['emulator', '--port', String(port), '--no-preview'], t.io)).toBe(EXIT.usage);
      expect(t.err()).toContain(`port ${port}`);
      expect(t.err()).toContain('--port');
    } finally {
      blocker.close();
    }
  });
});
