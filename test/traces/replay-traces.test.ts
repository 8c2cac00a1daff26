/**
 * Every bundled real trace (the twenty-one copies of the shared trace set's three folders, see
 * packages/sources/fixtures/traces) replays through sources → core → a channel, on fake time, to
 * final cards whose statuses, tool counts and failed-tool counts match what the trace records (for
 * more/ and t3/: the rows of their SOURCES.md table "What a right replay shows", read from the
 * bundled copies); the final views then render on every channel (Feishu, DingTalk, Slack) with the
 * same status, a title that is never empty, the tool count, the failed-call count
 * ("工具 · 164 · 23 失败"), and each run's final plan checklist and changed-files summary.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type CardStatus, type CardView, type ProgressCard } from '@progresscard/core';
import { fakeTime, playEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { bundledTraces, bundledTracesDir, readTrace } from '@progresscard/sources';
import { readFileSync } from 'node:fs';
import { createSlackRenderer } from '../../plugins/slack/src/render/renderer.js';
import { rawFacts } from '../../packages/sources/test/expected.js';
import { EXPECTED } from './endings.js';

afterEach(() => vi.useRealTimers());


/** Both platforms' renderers (no network: only their `render` is used). */
const feishuRenderer = feishu({ appId: 'cli_render_only', appSecret: 'render-only', receiveId: 'oc_render', timeZone: 'UTC' }).renderer;
const dingtalkRenderer = dingtalk({
  appKey: 'dingrenderonly',
  appSecret: 'render-only',
  cardTemplateId: 'render-only.schema',
  target: { type: 'group', openConversationId: 'cidRender==' },
  timeZone: 'UTC',
}).renderer;

const slackRenderer = createSlackRenderer({ timeZone: 'UTC' });

/** One row of a SOURCES.md table "What a right replay shows". */
interface SourcesRow {
  readonly final: string;
  readonly tools: number;
  readonly runs: readonly string[];
  readonly failed: number;
}

/** The rows of the "What a right replay shows" table of `folder/SOURCES.md`, by trace name (`folder/file`). */
function sourcesRows(folder: string): Map<string, SourcesRow> {
  const text = readFileSync(`${bundledTracesDir()}${folder}/SOURCES.md`, 'utf8');
  const table = text.slice(text.indexOf('## What a right replay shows'));
  const rows = new Map<string, SourcesRow>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | File | Final status | Finished tool calls | Run statuses | Failed tool calls | Notes |
    if (cells.length < 7 || !/\.(jsonl|json|log)$/.test(cells[1]!)) continue;
    rows.set(`${folder}/${cells[1]}`, { final: cells[2]!, tools: Number(cells[3]), runs: cells[4]!.split(','), failed: Number(cells[5]) });
  }
  return rows;
}
const SOURCES_ROWS = new Map([...sourcesRows('more'), ...sourcesRows('t3')]);

const HEADER_TEMPLATES: Record<CardStatus, string> = { running: 'blue', waiting: 'orange', completed: 'green', failed: 'red', cancelled: 'grey' };
// A failed run ends in the finished state (3) with the ❌ line in the content: the failed state (5)
// is off in DingTalk's default template (see the plugin's `failedState`).
const DINGTALK_FLOW: Record<CardStatus, string> = { running: '2', waiting: '2', completed: '3', failed: '3', cancelled: '3' };

/** Replays one trace to its final cards (one per run) on the memory channel, on fake time. */
async function replay(path: string): Promise<{ cards: ProgressCard[]; payloadStatuses: string[]; errorLines: number[]; messages: number }> {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  const channel = memoryChannel({ overrides: { budget: [{ limit: 50, intervalMs: 1000 }] } });
  const composition = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const time = fakeTime(vi);
  const byRun = new Map<number, ProgressCard>();
  const errorLines: number[] = [];
  const script: Array<{ run: number; event: ScriptedEvent }> = [];
  let first: number | undefined;
  let last = 0;
  for await (const item of readTrace(path, { maxGapMs: 30_000 })) {
    if (item.kind === 'error') {
      errorLines.push(item.line);
      continue;
    }
    // Script time: ms since the trace's first stamp; an event without a stamp keeps the previous one.
    first ??= item.event.at;
    last = item.event.at !== undefined && first !== undefined ? Math.max(last, item.event.at - first) : last;
    script.push({ run: item.run, event: { ...item.event, at: last } });
  }
  // Each run gets its card; the events of all runs play in trace order on the fake clock.
  let index = 0;
  const router = {
    push: (event: unknown) => {
      const { run } = script[index++]!;
      const card = byRun.get(run) ?? composition.open('memory');
      byRun.set(run, card);
      return card.push(event);
    },
  };
  const results = await playEvents(router, script.map((s) => s.event), time);
  expect(results.filter((r) => !r.accepted)).toEqual([]);
  await time.advance(60_000);
  const cards = [...byRun.values()];
  const finals = await Promise.all(cards.map((card) => card.finalDelivery));
  expect(finals.every((final) => final.ok)).toBe(true);
  // What the chat holds at the end: the last accepted payload of each card.
  const payloadStatuses = finals.map((final) => channel.messages.get(final.message!.id)!.history.at(-1)!.status);
  return { cards, payloadStatuses, errorLines, messages: channel.messages.size };
}

// Each replay reads and renders a whole recorded session (the compacted Codex rollout takes seconds on a
// busy machine): a per-file timeout, not the 5 s default.
describe('bundled traces replay to final cards on both channels', { timeout: 60_000 }, () => {
  it('covers every bundled trace', () => {
    expect(bundledTraces().map((trace) => trace.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    // Every row of the more/ and t3/ tables is a bundled trace (12 rows).
    expect([...SOURCES_ROWS.keys()].filter((name) => !EXPECTED[name])).toEqual([]);
    expect(SOURCES_ROWS.size).toBe(12);
  });

  for (const trace of bundledTraces()) {
    it(`${trace.name}: run statuses, tool and failed-tool counts as the trace records them`, async () => {
      const expected = EXPECTED[trace.name]!;
      const { cards, payloadStatuses, errorLines, messages } = await replay(trace.path);
      const views: CardView[] = cards.map((card) => card.view());
      const row = SOURCES_ROWS.get(trace.name);
      if (row) {
        // The SOURCES row itself: final status, run statuses, finished tool lines, failed ones.
        expect(views.at(-1)!.status).toBe(row.final);
        expect(views.map((view) => view.status)).toEqual(row.runs);
        expect(views.flatMap((view) => view.tools)).toHaveLength(row.tools);
        expect(views.flatMap((view) => view.tools).filter((tool) => tool.state === 'failed')).toHaveLength(row.failed);
      }
      expect(views.map((view) => view.status)).toEqual(expected.runs);
      expect(payloadStatuses).toEqual(expected.runs);
      expect(messages).toBe(cards.length);

      const tools = views.flatMap((view) => view.tools);
      expect(tools.filter((tool) => tool.state === 'running')).toEqual([]);
      const toolCount = expected.tools ?? rawFacts(trace.format, trace.path, errorLines).toolIds.size;
      expect(tools).toHaveLength(toolCount);
      if (expected.failed !== undefined) expect(tools.filter((tool) => tool.state === 'failed')).toHaveLength(expected.failed);

      // The plan checklist and the changed files stay on each run's final card, on both platforms.
      expect(views.map((view) => (view.plan ? `${view.plan.done} / ${view.plan.total}` : null))).toEqual(expected.plans);
      expect(views.map((view) => view.changedFiles.length)).toEqual(expected.changedFiles);
      for (const view of views) {
        const feishuText = JSON.stringify(feishuRenderer.render(view));
        const dingText = dingtalkRenderer.render(view).cardParamMap.msgContent!;
        for (const text of [feishuText, dingText]) {
          if (view.plan) expect(text).toContain(`计划 · ${view.plan.done} / ${view.plan.total}`);
          else expect(text).not.toContain('计划 · ');
          if (view.changedFiles.length > 0) expect(text).toContain(`修改了 ${view.changedFiles.length} 个文件`);
        }
        // Plan tool calls are not tool lines.
        expect(view.tools.map((tool) => tool.name)).not.toContain('TodoWrite');
        expect(view.tools.map((tool) => tool.name)).not.toContain('update_plan');
      }

      for (const view of views) {
        // No title is raw markup, on either platform.
        expect(view.title).not.toMatch(/^\s*</);
        const card = feishuRenderer.render(view) as unknown as { header: { template: string; title: { content: string } } };
        expect(card.header.template).toBe(HEADER_TEMPLATES[view.status]);
        const feishuTools = JSON.stringify(card).match(/工具调用\*\* · (\d+)/)?.[1];
        expect(Number(feishuTools ?? 0)).toBe(view.tools.length);
        const ding = dingtalkRenderer.render(view).cardParamMap;
        expect(ding.flowStatus).toBe(DINGTALK_FLOW[view.status]);
        // Slack: a header that is never empty (Slack refuses an empty header block).
        const slack = slackRenderer.render(view);
        const header = (slack.blocks ?? []).find((block) => block.type === 'header') as { text: { text: string } };
        expect(header.text.text.trim()).not.toBe('');
        expect(card.header.title.content.trim()).not.toBe('');
        expect((ding.msgTitle ?? '').trim()).not.toBe('');
        // The failed-call count is on every final card, though only the last few tool lines show.
        const failedCalls = view.tools.filter((tool) => tool.state === 'failed').length;
        if (failedCalls > 0) {
          const tally = `工具 · ${view.footer.toolCount} · ${failedCalls} 失败`;
          for (const text of [JSON.stringify(card), ding.msgContent!, JSON.stringify(slack)]) expect(text).toContain(tally);
        }
        // One title per run on both platforms, the same default when the trace gives none (each
        // platform escapes its own markup, e.g. backticks, so those are set aside).
        const plain = (title: string | undefined) => (title ?? '').replace(/[`\\\u02cb]/g, '');
        expect(plain(ding.msgTitle)).toBe(plain(card.header.title.content));
      }
    });
  }
});
