import { toolDetail, type ApprovalRequest, type Decision, type ProgressCard } from '@progresscard/core';

/** What `canUseTool` answers (the Claude Agent SDK's `PermissionResult`, the fields used here). */
export type ClaudePermissionResult =
  | { readonly behavior: 'allow'; readonly updatedInput: Record<string, unknown> }
  | { readonly behavior: 'deny'; readonly message: string };

/** The third argument of `canUseTool` (the fields used here). */
export interface ClaudePermissionContext {
  readonly signal: AbortSignal;
  /** The tool call asking; its line on the card is the one that waits. */
  readonly toolUseID?: string;
  /** The SDK's own prompt sentence, when it has one (e.g. "Claude wants to read foo.txt"). */
  readonly title?: string;
}

/** Options of {@link canUseToolOnCard}: those of `requestApproval` except the prompt and call. */
export type CardPermissionOptions = Omit<ApprovalRequest, 'prompt' | 'callId'>;

/**
 * A Claude Agent SDK `canUseTool` callback that asks on the card: each permission request becomes
 * `card.requestApproval` (Approve / Deny buttons on the tool's line; deny on timeout), and the click
 * answers the SDK: `allow` with the unchanged input, or `deny` naming who denied (or the timeout).
 * An aborted request (`signal`) is denied at once.
 *
 * ```ts
 * query({ prompt, options: { canUseTool: canUseToolOnCard(card), permissionMode: 'default' } })
 * ```
 */
export function canUseToolOnCard(card: ProgressCard, options: CardPermissionOptions = {}) {
  return async (toolName: string, input: Record<string, unknown>, context: ClaudePermissionContext): Promise<ClaudePermissionResult> => {
    if (context.signal.aborted) return { behavior: 'deny', message: 'the request was aborted' };
    const detail = toolDetail(input);
    const prompt = context.title ?? `Allow ${toolName}${detail ? `: \`${detail}\`` : ''}?`;
    const decision: Decision = await card.requestApproval({ ...options, prompt, callId: context.toolUseID });
    if (decision.approved) return { behavior: 'allow', updatedInput: input };
    const who = decision.timedOut ? 'nobody answered in time' : `denied by ${decision.by?.name || decision.by?.id || 'the user'}`;
    return { behavior: 'deny', message: `${toolName} was not allowed: ${who}` };
  };
}
