import type { BudgetKey, BudgetWindow, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';
import type { FeishuConfig } from './config.js';
import type { FeishuTarget } from './transport/transport.js';

/**
 * Feishu's per-receiver and per-message limit: 5 calls/s (code 230020). Sends: "5 QPS per user, and
 * 5 QPS per group, shared by all bots in that group"
 * (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create);
 * patches: 5 QPS per message (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/patch).
 */
const FEISHU_PER_TARGET_WINDOWS: readonly BudgetWindow[] = [{ limit: 5, intervalMs: 1000 }];

/**
 * The budgets of one Feishu call, as Feishu counts them: the API route of the app (create, reply or
 * patch; each has its own 50/s and 1000/min, "per API, per app, per tenant", gateway code 99991400:
 * https://open.feishu.cn/document/server-docs/api-call-guide/frequency-control) with the channel's
 * `budget` windows, plus the receiving chat for a send (not keyed by app: the chat's limit is shared
 * by every bot in it) or the message for a patch, with {@link FEISHU_PER_TARGET_WINDOWS}. Image uploads
 * (`im.v1.image.create`) and reactions (`im.v1.messageReaction.*`) each draw from their own route key.
 */
export function feishuBudgetKeys(config: Pick<FeishuConfig, 'appId' | 'receiveIdType' | 'receiveId' | 'replyToMessageId'>) {
  return (call: BudgetedCall<FeishuTarget | string>, settings: ChannelSettings): readonly BudgetKey[] => {
    const app = `feishu:${config.appId}`;
    // Image uploads and reactions are API routes of their own (same per-app 50/s and 1000/min).
    if (call.kind === 'image-upload') return [{ key: `${app}:image`, windows: settings.budget }];
    if (call.kind === 'reaction') return [{ key: `${app}:reaction`, windows: settings.budget }];
    if (call.kind === 'update') {
      return [
        { key: `${app}:patch`, windows: settings.budget },
        { key: `feishu:message:${call.message?.id ?? ''}`, windows: FEISHU_PER_TARGET_WINDOWS },
      ];
    }
    const given: FeishuTarget = typeof call.target === 'string' ? { receiveId: call.target } : (call.target ?? {});
    const receiveId = given.receiveId ?? config.receiveId;
    const receiver = receiveId ? `${given.receiveIdType ?? config.receiveIdType}:${receiveId}` : `reply:${given.replyToMessageId ?? config.replyToMessageId ?? ''}`;
    const replying = call.replyTo !== undefined || call.replyToMessage !== undefined || (given.replyToMessageId ?? (given.receiveId ? undefined : config.replyToMessageId)) !== undefined;
    return [
      { key: `${app}:${replying ? 'reply' : 'create'}`, windows: settings.budget },
      { key: `feishu:receiver:${receiver}`, windows: FEISHU_PER_TARGET_WINDOWS },
    ];
  };
}
