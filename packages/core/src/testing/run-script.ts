import type { AgentEvent } from '../events/contract.js';

/**
 * A run-shaped script of agent events, as benchmarks and load tests feed cards: 5 rounds, each of
 * thinking, 3 tool calls (one with streamed arguments), 8 answer tokens and a usage report, then
 * the run's end — 82 events. `i` varies the title and texts, so cards of different runs differ.
 */
export function runShapedScript(i: number): AgentEvent[] {
  const events: AgentEvent[] = [{ type: 'run.started', title: `Run ${i}`, model: 'model-x' }];
  for (let round = 1; round <= 5; round++) {
    events.push({ type: 'round.started', round });
    events.push({ type: 'thinking.delta', text: `Round ${round}: looking at the failing test in module ${i}. ` });
    for (let t = 0; t < 3; t++) {
      const callId = `c${round}-${t}`;
      events.push({ type: 'tool.started', callId, name: t === 0 ? 'shell' : 'read_file', args: t === 0 ? '{"command":"npm' : `{"path":"src/f${t}.ts"}` });
      if (t === 0) events.push({ type: 'tool.args_delta', callId, delta: ' test"}' });
      events.push({ type: 'tool.finished', callId, summary: `${10 * t + round} lines` });
    }
    for (let k = 0; k < 8; k++) events.push({ type: 'answer.delta', text: `token${k} ` });
    events.push({ type: 'usage', inputTokens: 1200, outputTokens: 80, contextTokens: 20_000 * round, contextWindow: 200_000 });
    events.push({ type: 'round.ended', round });
  }
  events.push({ type: 'run.completed' });
  return events;
}
