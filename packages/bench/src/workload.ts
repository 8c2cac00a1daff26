import type { AgentEvent } from '@progresscard/core';
import { bundledTraces, readTrace } from '@progresscard/sources';
import type { ChannelName } from './gates.js';
import { seededRandom } from './platform.js';

/** One event of a run's script, `offsetMs` after the run starts. */
export interface ScriptedEvent {
  readonly offsetMs: number;
  readonly event: AgentEvent;
}

/** A run: when it starts (ms after the point starts), its chat, and its events. */
export interface RunScript {
  readonly startMs: number;
  readonly chat: string;
  readonly events: readonly ScriptedEvent[];
}

/** Runs per chat: runs share chats, as a team's agents share a group; a Telegram private chat or a Teams 1:1 chat is one user's, one run at a time (Teams streams one at a time in a chat). */
export function runsPerChat(channel: ChannelName): number {
  return channel === 'telegram-private' || channel === 'teams-personal' ? 1 : 10;
}

/**
 * Synthetic runs: thinking streamed in deltas, 2–6 tools of 1–20 s each with text between them,
 * then an answer streamed in 30 deltas and the completion. Starts spread over the first 10 s.
 */
export function syntheticRuns(n: number, seed: number, perChat = 10): RunScript[] {
  const random = seededRandom(seed);
  const between = (min: number, max: number) => min + random() * (max - min);
  return Array.from({ length: n }, (_, i) => {
    const events: ScriptedEvent[] = [];
    let t = 0;
    const at = (event: AgentEvent, gap = 0) => {
      t += gap;
      events.push({ offsetMs: Math.round(t), event });
    };
    at({ type: 'run.started', title: `Run ${i}`, model: 'model-x' });
    const tools = 2 + Math.floor(random() * 5);
    for (let k = 0; k < tools; k++) {
      for (let d = 0; d < 5; d++) at({ type: 'thinking.delta', text: `step ${k} thought ${d}. ` }, between(50, 250));
      at({ type: 'tool.started', callId: `c${k}`, name: k % 2 ? 'read_file' : 'shell', args: { command: `task ${i}.${k}` } }, between(50, 300));
      at({ type: 'tool.finished', callId: `c${k}`, summary: `${k} ok` }, between(1000, 20_000));
    }
    for (let d = 0; d < 30; d++) at({ type: 'answer.delta', text: `word${d} ` }, between(30, 80));
    at({ type: 'run.completed' }, between(50, 200));
    return { startMs: Math.round(random() * 10_000), chat: `chat-${Math.floor(i / perChat)}`, events };
  });
}

/** The runs of the bundled real traces, gaps over 20 s shortened to 20 s, at most 400 events each. */
export async function traceScripts(): Promise<ScriptedEvent[][]> {
  const scripts: ScriptedEvent[][] = [];
  for (const trace of bundledTraces()) {
    const runs = new Map<string, AgentEvent[]>();
    for await (const item of readTrace(trace.path, { maxGapMs: 20_000 })) {
      if (item.kind !== 'event') continue;
      const key = String(item.run);
      let events = runs.get(key);
      if (!events) {
        events = [];
        runs.set(key, events);
      }
      if (events.length < 400) events.push(item.event);
    }
    for (const events of runs.values()) {
      const t0 = events[0]?.at ?? 0;
      const script = events.map((event) => ({ offsetMs: (event.at ?? t0) - t0, event: { ...event, at: undefined } as AgentEvent }));
      if (!script.some((step) => step.event.type === 'run.completed' || step.event.type === 'run.failed' || step.event.type === 'run.cancelled')) {
        script.push({ offsetMs: (script.at(-1)?.offsetMs ?? 0) + 100, event: { type: 'run.completed' } });
      }
      scripts.push(script);
    }
  }
  return scripts;
}

/** `n` runs replaying the real traces in turn (run i plays trace run i mod count), starts over the first 10 s. */
export function traceRuns(n: number, seed: number, scripts: readonly ScriptedEvent[][], perChat = 10): RunScript[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    startMs: Math.round(random() * 10_000),
    chat: `chat-${Math.floor(i / perChat)}`,
    events: scripts[i % scripts.length]!,
  }));
}
