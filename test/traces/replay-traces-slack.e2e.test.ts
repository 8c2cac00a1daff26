/**
 * Every bundled real trace replays through sources → core → the Slack plugin → the Slack emulator
 * over loopback, to final messages whose status matches the trace's ending. Event times are compressed
 * (the run order is kept); Slack's per-minute limits and the plugin's budget run 20× faster alike.
 */
import { createProgressCards, silentLogger, type ProgressCard } from '@progresscard/core';
import { DEFAULT_SLACK_LIMITS, DEFAULT_SLACK_WORKSPACE, startSlackEmulator, type SlackEmulator } from '@progresscard/emulator';
import { SLACK_DEFAULTS, slack } from '@progresscard/plugin-slack';
import { bundledTraces, readTrace } from '@progresscard/sources';
import { afterEach, describe, expect, it } from 'vitest';
import { slackCardState } from '../../packages/cli/src/preview/render-slack.js';
import { EXPECTED } from './endings.js';

const SCALE = 20;
const scaled = (windows: readonly { limit: number; intervalMs: number }[]) => windows.map((w) => ({ limit: w.limit, intervalMs: Math.round(w.intervalMs / SCALE) }));

let emulator: SlackEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('bundled traces replay to final Slack messages', () => {
  for (const trace of bundledTraces()) {
    it(`${trace.name}: every run ends in one Slack message whose status is the trace's ending`, { timeout: 60_000 }, async () => {
      emulator = await startSlackEmulator({ limits: { postMessageWindows: scaled(DEFAULT_SLACK_LIMITS.postMessageWindows), updateWindows: scaled(DEFAULT_SLACK_LIMITS.updateWindows) } });
      const plugin = slack({
        botToken: DEFAULT_SLACK_WORKSPACE.botToken,
        channel: DEFAULT_SLACK_WORKSPACE.channel,
        apiUrl: emulator.apiUrl,
        budget: scaled(SLACK_DEFAULTS.budget),
        perCardIntervalMs: SLACK_DEFAULTS.perCardIntervalMs / SCALE,
        debounceMs: 50,
        tickMs: 150,
      });
      const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
      const byRun = new Map<number, ProgressCard>();
      for await (const item of readTrace(trace.path, { maxGapMs: 30_000 })) {
        if (item.kind === 'error') continue;
        const card = byRun.get(item.run) ?? cards.open('slack');
        byRun.set(item.run, card);
        expect(card.push(item.event).accepted).toBe(true);
      }
      const finals = await Promise.all([...byRun.values()].map((card) => card.finalDelivery));
      await cards.shutdown();
      expect(finals.map((final) => final.ok)).toEqual(finals.map(() => true));
      expect(emulator.calls({ outcome: 'rejected' }).filter((call) => call.status !== 429)).toEqual([]);
      const lastRun = Math.max(...byRun.keys());
      expect(byRun.get(lastRun)!.view().status).toBe(EXPECTED[trace.name]!.runs.at(-1));
      // What the channel holds at the end: each run's message in its final state.
      for (const [run, card] of byRun) {
        const final = finals[[...byRun.keys()].indexOf(run)]!;
        const message = emulator.message(final.message!.id)!;
        expect(slackCardState(message.blocks)).toBe(card.view().status);
        // No tool line is left running (`shell: `x` (running · 3s)`).
        expect(JSON.stringify(message.blocks)).not.toMatch(/\(running(?: ·|\))|: running…/);
        const view = card.view();
        // Slack cards speak English by default (the traces' runs set no language).
        expect(view.locale).toBe('en');
        // The plan checklist and the changed files reach the Slack message too.
        const blocks = JSON.stringify(message.blocks);
        if (view.plan) expect(blocks).toContain(`Plan · ${view.plan.done} / ${view.plan.total}`);
        if (view.changedFiles.length > 0) expect(blocks).toContain(`${view.changedFiles.length} file${view.changedFiles.length === 1 ? '' : 's'} changed`);
      }
      const plans = [...byRun.values()].map((card) => card.view().plan).map((plan) => (plan ? `${plan.done} / ${plan.total}` : null));
      expect(plans).toEqual(EXPECTED[trace.name]!.plans);
    });
  }
});
