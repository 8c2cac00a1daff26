/**
 * Subagents as a tree on every channel, from the bundled Claude traces with subagents (copies of the
 * shared trace set's claude-session-subagent.jsonl and more/claude-transcript-2.1.39-compact-interrupt.jsonl,
 * see packages/sources/fixtures/traces/ATTRIBUTION.md): each subagent (Task call) is a line of its own
 * with its status, elapsed time and tool count; its calls are under it while it runs (Feishu: an open
 * `collapsible_panel`; the text channels: indented rows) and folded once it is done.
 */
import { describe, expect, it } from 'vitest';
import { CardState, type AgentEvent, type CardView, type ToolLine } from '@progresscard/core';
import { checkFeishuCardContent } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { slack } from '@progresscard/plugin-slack';
import { telegram } from '@progresscard/plugin-telegram';
import { discord } from '@progresscard/plugin-discord';
import { bundledTraces, readTrace } from '@progresscard/sources';

// Each channel with its default settings (tools shown before older ones fold, sizes).
const switches = {};
const feishuRenderer = feishu({ appId: 'cli_render_only', appSecret: 'render-only', receiveId: 'oc_render', timeZone: 'UTC', ...switches }).renderer;
/** The text channels, each with the marker its renderer puts before a call under a subagent. */
const TEXT_CHANNELS = {
  dingtalk: {
    renderer: dingtalk({ appKey: 'dingrenderonly', appSecret: 'render-only', cardTemplateId: 't.schema', target: { type: 'group', openConversationId: 'cidR==' }, ...switches }).renderer,
    child: '    * ',
  },
  // Slack's mrkdwn tree (its fallback when the message cannot take task cards); its task cards below.
  slack: { renderer: slack({ botToken: 'xoxb-render-only', channel: 'C0123', aiBlocks: false, ...switches }).renderer, child: '\u2003◦ ' },
  telegram: { renderer: telegram({ botToken: '123456789:AAHrenderOnlyRenderOnlyRenderOnly123', chatId: -1001234567890, ...switches }).renderer, child: '\u2003◦ ' },
  discord: { renderer: discord({ botToken: 'MTI1MDAwMDAwMDAwMDAwMDEwMA.GrendR.renderonlyrenderonlyrenderonly12', channelId: '1250000000000000100', ...switches }).renderer, child: '\u2003◦ ' },
} as const;

interface Snapshots {
  /** Per subagent call: the view while it ran, right after its latest call started. */
  readonly running: Map<string, CardView>;
  readonly finals: CardView[];
}

async function replay(name: string): Promise<Snapshots> {
  const trace = bundledTraces().find((t) => t.name === name)!;
  const states = new Map<number, CardState>();
  const running = new Map<string, CardView>();
  let lastAt = 0;
  for await (const item of readTrace(trace.path, { maxGapMs: 30_000, locale: 'en' })) {
    if (item.kind === 'error') continue;
    const at = item.event.at ?? lastAt;
    lastAt = at;
    const state = states.get(item.run) ?? new CardState({ startedAt: at, locale: 'en' });
    states.set(item.run, state);
    state.apply(item.event as AgentEvent, at);
    const event = item.event as AgentEvent;
    if (event.type === 'tool.started' && event.parentCallId !== undefined) {
      const view = state.view(at + 1500);
      if (view.tools.find((tool) => tool.callId === event.parentCallId)?.state === 'running') running.set(event.parentCallId, view);
    }
  }
  return { running, finals: [...states.values()].map((state) => state.view(lastAt + 60_000)) };
}

const subagents = (view: CardView): ToolLine[] => view.tools.filter((tool) => (tool.subagentTools ?? 0) > 0);
const childrenOf = (view: CardView, parent: ToolLine) => view.tools.filter((tool) => tool.parentCallId === parent.callId);

function feishuPanels(view: CardView): Array<{ element_id: string; expanded: boolean; header: { title: { content: string } }; elements: Array<{ content: string }> }> {
  const card = feishuRenderer.render(view);
  expect(checkFeishuCardContent(JSON.stringify(card))).toMatchObject({ ok: true });
  const elements = (card as unknown as { body: { elements: Array<Record<string, unknown>> } }).body.elements;
  return elements.filter((element) => String(element.element_id).startsWith('subagent_')) as never;
}

/** Slack's default card draws each call as a `task_card` block: the subagent's card, by its call id. */
const slackBlocksRenderer = slack({ botToken: 'xoxb-render-only', channel: 'C0123', ...switches }).renderer;
function slackTaskCard(view: CardView, callId: string): { status: string; title: string; details?: unknown } | undefined {
  const { blocks } = slackBlocksRenderer.render(view) as unknown as { blocks: Array<{ type: string; task_id?: string }> };
  return blocks.find((block) => block.type === 'task_card' && block.task_id === callId) as never;
}

/** The rendered payload's text lines (JSON strings keep `\n` escaped). */
const textLines = (payload: unknown) => JSON.stringify(payload).split('\\n');

describe('subagents as a tree on every channel (replayed Claude traces)', () => {
  for (const name of ['claude-session-subagent.jsonl', 'more/claude-transcript-2.1.39-compact-interrupt.jsonl']) {
    it(`${name}: on the final card each subagent is one line (status, time, tool count) with its calls folded under it`, async () => {
      const { finals } = await replay(name);
      const views = finals.filter((view) => subagents(view).length > 0);
      expect(views.length).toBeGreaterThan(0);
      for (const view of views) {
        const parents = subagents(view);
        for (const parent of parents) {
          expect(parent.text).toMatch(/\((done|failed|interrupted) · .*\d+ tools?\)$/);
          expect(parent.text, 'elapsed time').toMatch(/ · \d+[hms]( \d+[ms])? · /);
        }
        // Feishu: one native fold per subagent, folded, titled with the subagent's line, holding its calls.
        const panels = feishuPanels(view);
        expect(panels).toHaveLength(parents.length);
        parents.forEach((parent, i) => {
          expect(panels[i]!.expanded).toBe(false);
          expect(panels[i]!.header.title.content).toContain(parent.text.slice(0, 40));
          const body = panels[i]!.elements[0]!.content;
          expect(body.split('\n').length).toBe(Math.min(childrenOf(view, parent).length, 10) + (childrenOf(view, parent).length > 10 ? 1 : 0));
        });
        // Slack's task cards: the subagent's card is done (or failed) and holds none of its calls.
        for (const parent of parents) {
          const task = slackTaskCard(view, parent.callId);
          if (task === undefined) continue; // an older entry, counted rather than drawn
          expect(task.status).toMatch(/^(complete|error)$/);
          expect(task.details).toBeUndefined();
        }
        // Text channels: the subagent's line with its count, and none of its calls listed (folded).
        for (const [channel, { renderer, child }] of Object.entries(TEXT_CHANNELS)) {
          const lines = textLines(renderer.render(view));
          expect(lines.filter((line) => line.includes(child)), channel).toEqual([]);
          for (const parent of parents) {
            expect(lines.filter((line) => line.includes(`· ${parent.subagentTools} tool`)).length, channel).toBeGreaterThan(0);
            // The subagent's calls are not top-level lines either.
            for (const call of childrenOf(view, parent)) expect(lines.some((line) => line.includes(call.name)), `${channel}: ${call.name}`).toBe(false);
          }
        }
      }
    });

    it(`${name}: while a subagent runs its latest calls are shown under its line, open`, async () => {
      const { running } = await replay(name);
      expect(running.size).toBeGreaterThan(0);
      for (const [parentId, view] of running) {
        const parent = view.tools.find((tool) => tool.callId === parentId)!;
        expect(parent.text).toMatch(/running/);
        const latest = childrenOf(view, parent).at(-1)!;
        const panel = feishuPanels(view).find((p) => p.header.title.content.includes(parent.text.slice(0, 40)))!;
        expect(panel.expanded).toBe(true);
        // Under the subagent its calls lose the `Task › ` prefix.
        expect(panel.elements[0]!.content).toContain(latest.name.split(' › ').pop()!);
        expect(panel.elements[0]!.content).not.toContain(`${parent.name} › `);
        // Slack's task cards: the running subagent's card is in progress with its latest call in its details.
        const task = slackTaskCard(view, parent.callId)!;
        expect(task.status).toBe('in_progress');
        expect(JSON.stringify(task.details)).toContain(latest.name.split(' › ').pop()!);
        for (const [channel, { renderer, child }] of Object.entries(TEXT_CHANNELS)) {
          const lines = textLines(renderer.render(view));
          const at = lines.findIndex((line) => line.includes(`· ${parent.subagentTools} tool`));
          expect(at, channel).toBeGreaterThanOrEqual(0);
          expect(lines[at + 1], channel).toContain(child);
        }
      }
    });
  }
});

