import { mkdirSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgressCards, silentLogger } from '@progresscard/core';
import { DEFAULT_SLACK_WORKSPACE, DEFAULT_TEAMS_BOT, type SlackEmulator } from '@progresscard/emulator';
import {
  emulatedPlugins,
  feishuChannel,
  slackChannel,
  loadTrace,
  main,
  replayTickMs,
  replayTrace,
  startEmulators,
  startPreviewServer,
  type CliIO,
  type RunInfo,
} from '@progresscard/cli';
import { launchChromium } from '../support/chromium.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Running tool lines on a card: `Task: \`…\`（执行中 · 12 秒）` → name/detail → seconds. */
function runningDurations(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const match of text.matchAll(/([^\n]+?)（执行中 · (?:(\d+) 分 ?)?(?:(\d+) 秒)?）/g)) {
    const seconds = Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
    found.set(match[1]!.trim(), seconds);
  }
  return found;
}

describe('live preview page', () => {
  let browser: Browser;
  let page: Page;

  // Launching Chromium next to other test runs on a loaded machine can take longer than the 10 s hook default.
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a running tool\'s duration advancing as the emulator accepts each tick', async () => {
    // The tool runs until the page has shown its duration advance: a condition, not a wall-clock window
    // of a sped-up replay that a busy machine can overrun (the demo below checks the completed cards).
    const emulators = await startEmulators(['feishu']);
    const cards = createProgressCards({ channels: emulatedPlugins(emulators, { tickMs: 1000 }), logger: silentLogger, env: {} });
    const preview = await startPreviewServer({ sources: emulators.sources, runInfo: () => ({ title: 't', phase: 'emulator' }), port: 0 });
    try {
      const card = cards.open('feishu', undefined, { locale: 'zh-CN', title: 'Tests' });
      card.toolStarted('c1', 'shell', { command: 'npm test' });
      await page.goto(preview.url);
      const feishuCard = page.locator('[data-channel="feishu"] .card-holder').last();
      const first = new Map<string, number>();
      const advanced = await vi.waitFor(async () => {
        const text = await feishuCard.innerText({ timeout: 5_000 }).catch(() => '');
        for (const [tool, seconds] of runningDurations(text)) {
          const seen = first.get(tool);
          if (seen === undefined) first.set(tool, seconds);
          else if (seconds > seen) return { tool, from: seen, to: seconds };
        }
        throw new Error(`running tools seen: ${JSON.stringify([...first])}`);
      }, { timeout: 120_000, interval: 150 });
      expect(advanced.tool).toMatch(/shell: `?npm test/);
      card.toolFinished('c1', '212 passed');
      card.complete('All tests pass.');
      expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
      await expect.poll(() => feishuCard.getAttribute('data-state'), { timeout: 30_000 }).toBe('green');
      expect(await feishuCard.innerText()).not.toContain('执行中');
    } finally {
      await cards.shutdown();
      await preview.close();
      await emulators.close();
    }
  }, 180_000);

  it('shows the completed demo cards with their footer and the update history', async () => {
    const controller = new AbortController();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    stderr.resume();
    const io: CliIO = { stdout, stderr, env: {}, signal: controller.signal };
    // --keep-open: the server stays up after the run until we abort (our Ctrl-C).
    const run = main(['demo', '--speed', '4', '--port', '0', '--keep-open'], io);

    // The CLI prints the preview's address once its emulators are up (slow on a busy machine).
    const url = await vi.waitFor(() => {
      const found = /live preview: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
      expect(found, out).toBeDefined();
      return found!;
    }, { timeout: 60_000, interval: 50 });
    await page.goto(url);
    const feishuCard = page.locator('[data-channel="feishu"] .card-holder').last();
    const dingtalkCard = page.locator('[data-channel="dingtalk"] .card-holder').last();

    // Then the run completes: green headers, the answer, and the footer with duration and model.
    await page.locator('.run .phase.done').waitFor({ timeout: 180_000 });
    await expect.poll(() => feishuCard.getAttribute('data-state'), { timeout: 10_000 }).toBe('green');
    await expect.poll(() => dingtalkCard.getAttribute('data-state'), { timeout: 10_000 }).toBe('finished');
    const footer = feishuCard.locator('.card .size-notation').last();
    expect(await footer.innerText()).toMatch(/\d+ 分 \d+ 秒 · claude-sonnet-4/);
    expect(await dingtalkCard.innerText()).toMatch(/已完成[\s\S]*\d+ 分 \d+ 秒 · claude-sonnet-4/);
    expect(await feishuCard.locator('.card-header').innerText()).toContain('已完成');
    expect(await feishuCard.innerText()).not.toContain('执行中');
    // Answer markdown is rendered (bold headings become <strong>, lists become <li>).
    expect(await feishuCard.locator('.markdown strong').count()).toBeGreaterThan(0);
    expect(await feishuCard.locator('.markdown li').count()).toBeGreaterThan(0);
    // The update history lists the accepted calls (at least the send and the final; updates in between depend on wall time).
    expect(await page.locator('[data-channel="feishu"] .calls li[data-outcome="accepted"]').count()).toBeGreaterThanOrEqual(2);

    mkdirSync(`${root}.artifacts`, { recursive: true });
    await page.screenshot({ path: `${root}.artifacts/preview.png`, fullPage: true });

    controller.abort();
    expect(await run).toBe(0);
  }, 300_000);

  it('puts rejected and rate-limited calls on the update history', async () => {
    const trace = await loadTrace(`${root}packages/cli/test/fixtures/short-run.events.jsonl`, 'short-run');
    const emulators = await startEmulators(['feishu', 'dingtalk']);
    let phase: RunInfo['phase'] = 'replaying';
    const preview = await startPreviewServer({ sources: emulators.sources, runInfo: () => ({ title: 't', trace: trace.name, phase }), port: 0 });
    try {
      // Feishu answers the 1st patch of its IM card (the operator's rollback mode, FEISHU_CARD_MODE=message;
      // CardKit is the default) with its per-message frequency limit (230020): the first, because on a busy
      // machine the replay may coalesce into a single patch (the final), which must then be retried.
      emulators.emulator(feishuChannel)!.faults.add({ route: 'im.message.patch', nth: 1, respond: { status: 400, body: { code: 230020, msg: 'This operation triggers the frequency limit.' } } });
      await page.goto(preview.url);
      process.env.FEISHU_CARD_MODE = 'message';
      const channels = (() => {
        try {
          return emulatedPlugins(emulators, { tickMs: replayTickMs(4) });
        } finally {
          delete process.env.FEISHU_CARD_MODE;
        }
      })();
      const result = await replayTrace({ trace, speed: 4, channels, onProgress: () => preview.notify() });
      phase = 'done';
      preview.notify();
      expect(result.cards.every((c) => c.status === 'completed' && c.final?.ok)).toBe(true);

      const feishu = page.locator('[data-channel="feishu"]');
      await expect.poll(() => feishu.locator('.calls li.rl').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(await feishu.locator('.timeline i.rate').count()).toBeGreaterThanOrEqual(1);
      expect(await feishu.locator('.calls li.rl').first().innerText()).toMatch(/im\.message\.patch 400 230020/);
      expect(await feishu.locator('.counts').innerText()).toMatch(/[1-9]\d* rate-limited/);
      // The card still ends completed: the core retried after the rate-limit answer.
      await expect.poll(() => feishu.locator('.card-holder').last().getAttribute('data-state'), { timeout: 10_000 }).toBe('green');
      expect(await page.locator('[data-channel="dingtalk"] .calls li.no, [data-channel="dingtalk"] .calls li.rl').count()).toBe(0);
    } finally {
      await preview.close();
      await emulators.close();
    }
  }, 60_000);

  it('shows the approval buttons and a person clicks them against every emulator; the agent proceeds', async () => {
    const channels = ['feishu', 'dingtalk', 'slack'] as const;
    /** What the page says after the click: Feishu's toast, DingTalk's notice, Slack's in-place update (it has no toast). */
    const notices = { feishu: 'ou_reviewer: Sent: Approve', dingtalk: 'ou_reviewer: Sent: Approve', slack: 'ou_reviewer: card updated in place' };
    const emulators = await startEmulators([...channels]);
    const cards = createProgressCards({ channels: emulatedPlugins(emulators, { tickMs: 3000 }), logger: silentLogger, env: {} });
    const preview = await startPreviewServer({ sources: emulators.sources, runInfo: () => ({ title: 't', phase: 'emulator' }), port: 0 });
    try {
      const decisions = channels.map((channel) => {
        const card = cards.open(channel, undefined, { locale: 'en', title: 'Publish' });
        card.toolStarted('c1', 'shell', { command: 'npm publish' });
        return card.requestApproval({ prompt: 'Run `npm publish`?', callId: 'c1' });
      });
      await page.goto(preview.url);
      await page.fill('#user', 'ou_reviewer');
      const decided = new Set<number>();
      for (const [index, decision] of decisions.entries()) void decision.then(() => decided.add(index));
      for (const [index, channel] of channels.entries()) {
        const panel = page.locator(`[data-channel="${channel}"]`);
        const approve = panel.locator('.card-holder button[data-button="Approve"]');
        await approve.waitFor({ timeout: 10_000 });
        // DingTalk's Stream client connects when the first control shows: click until the emulator
        // delivers, a second apart, and never again once the agent has the decision (a click on the
        // page's not yet refreshed button would be answered no-such-button and replace the notice).
        await expect
          .poll(async () => {
            if (!decided.has(index) && (await approve.count()) > 0) await approve.first().click({ timeout: 2_000 }).catch(() => undefined);
            return panel.locator('.notice').innerText();
          }, { timeout: 15_000, interval: 1_000 })
          .toBe(notices[channel]);
      }
      await expect(Promise.all(decisions)).resolves.toEqual(channels.map(() => expect.objectContaining({ approved: true, by: expect.objectContaining({ id: 'ou_reviewer' }) })));
      // The buttons are gone from every card once decided.
      await expect.poll(() => page.locator('.card-holder button[data-button="Approve"]').count(), { timeout: 10_000 }).toBe(0);
    } finally {
      await cards.shutdown();
      await preview.close();
      await emulators.close();
    }
  }, 60_000);
  it('a live Slack thread stream and a Teams 1:1 stream show the platform\'s Stop; a click on the page cancels each run through the user-stop path', async () => {
    const emulators = await startEmulators(['slack', 'teams']);
    const cards = createProgressCards({ channels: emulatedPlugins(emulators, { tickMs: 1000 }), logger: silentLogger, env: {} });
    const preview = await startPreviewServer({ sources: emulators.sources, runInfo: () => ({ title: 't', phase: 'emulator' }), port: 0 });
    try {
      const slackEmulator = emulators.emulator(slackChannel) as SlackEmulator;
      const question = slackEmulator.postUserMessage(DEFAULT_SLACK_WORKSPACE.channel, 'summarise the release', { user: 'U0ANA' });
      const runs = {
        slack: cards.open('slack', undefined, { locale: 'en', title: 'Release notes', replyTo: { messageId: question.ts, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } }),
        teams: cards.open('teams', { conversationId: DEFAULT_TEAMS_BOT.personalChat, conversationType: 'personal' }, { locale: 'en', title: 'Release notes' }),
      };
      const heard: Record<string, string[]> = { slack: [], teams: [] };
      for (const [channel, card] of Object.entries(runs)) {
        card.onStop((by) => void heard[channel]!.push(by.id));
        card.answer('Release 2.4 adds dark mode. ');
      }
      await page.goto(preview.url);
      for (const [channel, card] of Object.entries(runs)) {
        const panel = page.locator(`[data-channel="${channel}"]`);
        const stop = panel.locator('.card-holder button[data-button="platform-stop"]');
        // The Stop shows once the stream is open (its first call accepted).
        await stop.first().waitFor({ timeout: 15_000 });
        await stop.first().click();
        await expect.poll(() => panel.locator('.notice').innerText(), { timeout: 10_000 }).toContain('stream stopped');
        // The next stream call is refused as stopped by the user: the run is cancelled, onStop hears it, nothing is re-posted.
        card.answer('It also fixes the login bug.');
        await expect.poll(() => card.view().status, { timeout: 15_000 }).toBe('cancelled');
        expect(await card.finalDelivery).toMatchObject({ status: 'cancelled' });
        expect(heard[channel]!.length).toBe(1);
        // The stopped stream shows no Stop any more.
        await expect.poll(() => stop.count(), { timeout: 10_000 }).toBe(0);
      }
      expect(slackEmulator.messages({ threadTs: question.ts }).map((m) => m.text)).toEqual(['Release 2.4 adds dark mode. ']);
    } finally {
      await cards.shutdown();
      await preview.close();
      await emulators.close();
    }
  }, 90_000);
});
