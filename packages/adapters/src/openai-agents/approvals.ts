import { toolDetail, type ApprovalRequest, type Decision, type ProgressCard } from '@progresscard/core';

/** What the helper reads of a `RunToolApprovalItem` (an interruption of the OpenAI Agents SDK). */
export interface OpenAIAgentsApprovalItem {
  readonly rawItem: { readonly name?: string; readonly arguments?: string; readonly callId?: string };
  readonly toolName?: string;
}

/** What the helper reads of an interrupted run result: its interruptions and the state to approve on. */
export interface OpenAIAgentsInterruptedRun<Item extends OpenAIAgentsApprovalItem> {
  readonly interruptions: readonly Item[];
  readonly state: { approve(item: Item): void; reject(item: Item): void };
}

/** Options of {@link approveOnCard}: those of `requestApproval` except the prompt and call. */
export type CardApprovalOptions = Omit<ApprovalRequest, 'prompt' | 'callId'>;

/**
 * Asks on the card for every tool approval a run was interrupted for (tools with `needsApproval`),
 * one after the other: Approve / Deny buttons on the tool's line, deny on timeout. Each decision is
 * applied to `result.state` (`approve` / `reject`); resume with `run(agent, result.state, { stream: true })`
 * and mirror the resumed run onto the same card.
 * @returns the decisions, in the order of `result.interruptions`.
 */
export async function approveOnCard<Item extends OpenAIAgentsApprovalItem>(
  result: OpenAIAgentsInterruptedRun<Item>,
  card: ProgressCard,
  options: CardApprovalOptions = {},
): Promise<Decision[]> {
  const decisions: Decision[] = [];
  for (const item of result.interruptions) {
    const name = item.toolName ?? item.rawItem.name ?? 'tool';
    const detail = toolDetail(item.rawItem.arguments ?? '');
    const decision = await card.requestApproval({ ...options, prompt: `Allow ${name}${detail ? `: \`${detail}\`` : ''}?`, callId: item.rawItem.callId });
    if (decision.approved) result.state.approve(item);
    else result.state.reject(item);
    decisions.push(decision);
  }
  return decisions;
}
