/**
 * Subagents in the bundled Claude traces (copies of ../shared/traces/claude-session-subagent.jsonl and
 * more/claude-transcript-2.1.39-compact-interrupt.jsonl): each subagent's tool calls name the Task call
 * that ran them (`parentCallId`), and the Task call's own line counts them (`· 3 tools`).
 */
import { describe, expect, it } from 'vitest';
import { CardState, type AgentEvent } from '@progresscard/core';
import { bundledTraces, readTrace } from '@progresscard/sources';

async function finalViews(name: string) {
  const trace = bundledTraces().find((t) => t.name === name)!;
  const states = new Map<number, CardState>();
  for await (const item of readTrace(trace.path, { maxGapMs: 30_000, locale: 'en' })) {
    if (item.kind === 'error') continue;
    const at = item.event.at ?? 0;
    const state = states.get(item.run) ?? new CardState({ startedAt: at, locale: 'en' });
    states.set(item.run, state);
    state.apply(item.event as AgentEvent, at);
  }
  return [...states.values()].map((state) => state.view(Number.MAX_SAFE_INTEGER / 2));
}

describe('subagent calls on the card', () => {
  for (const name of ['claude-session-subagent.jsonl', 'more/claude-transcript-2.1.39-compact-interrupt.jsonl']) {
    it(`${name}: every subagent tool call names its Task call, whose line counts them`, async () => {
      const tools = (await finalViews(name)).flatMap((view) => view.tools);
      const children = tools.filter((tool) => tool.parentCallId !== undefined);
      expect(children.length).toBeGreaterThan(0);
      for (const child of children) {
        const parent = tools.find((tool) => tool.callId === child.parentCallId);
        expect(parent, child.name).toBeDefined();
        expect(child.name.startsWith(`${parent!.name} › `)).toBe(true);
      }
      const parents = tools.filter((tool) => (tool.subagentTools ?? 0) > 0);
      expect(parents.length).toBeGreaterThan(0);
      for (const parent of parents) {
        expect(parent.subagentTools).toBe(children.filter((child) => child.parentCallId === parent.callId).length);
        expect(parent.text).toMatch(new RegExp(`· ${parent.subagentTools} tools?\\)$`));
      }
    });
  }
});
