import type { ProgressCard } from '@progresscard/core';
import { mirrorStream, withToolEffects, type LiveRunResult, type MirrorOptions } from '../shared/mirror.js';
import { openAIAgentsMapper, type OpenAIAgentsRunOutcome, type OpenAIAgentsStreamEvent } from './map-events.js';

export { openAIAgentsMapper, type OpenAIAgentsRunOutcome, type OpenAIAgentsStreamEvent } from './map-events.js';
export type { LiveRunResult, MirrorOptions } from '../shared/mirror.js';

/** What the adapter reads of `run(agent, input, { stream: true })`'s result: its events, then its outcome. */
export type OpenAIAgentsStreamedRun = AsyncIterable<OpenAIAgentsStreamEvent> & OpenAIAgentsRunOutcome;

/**
 * Mirrors an OpenAI Agents SDK streamed run onto a card:
 * `await mirrorOpenAIAgents(await run(agent, input, { stream: true }), card, { title: input })`.
 * Maps the events as {@link openAIAgentsMapper} describes. A run interrupted for tool approvals
 * leaves the card waiting; mirror the resumed run (`run(agent, result.state, { stream: true })`)
 * onto the same card. Imports nothing from the SDK.
 *
 * @returns The card's final status once the stream ended (`waiting` while approvals are pending).
 * @throws Whatever iterating the run throws (after the card shows it failed, or cancelled for an abort).
 */
export function mirrorOpenAIAgents(result: OpenAIAgentsStreamedRun, card: ProgressCard, options: MirrorOptions = {}): Promise<LiveRunResult> {
  return mirrorStream(result, card, withToolEffects(openAIAgentsMapper(() => result, options)), options.signal);
}
export { mirrorAgentToolStream, type OpenAIAgentToolStreamEvent } from './agent-tools.js';
export { approveOnCard, type CardApprovalOptions, type OpenAIAgentsApprovalItem, type OpenAIAgentsInterruptedRun } from './approvals.js';
