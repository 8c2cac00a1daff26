import type { BudgetKey, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';

/**
 * The budgets of one DingTalk call: DingTalk limits each app per API ("20 QPS per app per API",
 * `Forbidden.AccessDenied.QpsLimitForAppkeyAndApi`:
 * https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server),
 * so sends (`createAndDeliver`) and updates (`PUT /v1.0/card/instances`) each draw from their own key
 * with the channel's `budget` windows. In `streaming` content mode a send or an update also writes
 * the content through `PUT /v1.0/card/streaming`, an API of its own with its own 20 QPS: such calls
 * draw from its key too (else sends and updates together stream up to twice its limit). No per-card
 * or per-chat limit is published. (The plugin makes no image uploads or reactions; were it to, each
 * would be a key of its own.)
 */
export function dingtalkBudgetKeys(appKey: string, contentMode: 'streaming' | 'card-data' = 'streaming') {
  return (call: BudgetedCall, settings: ChannelSettings): readonly BudgetKey[] => {
    const main = { key: `dingtalk:${appKey}:${call.kind === 'send' ? 'createAndDeliver' : call.kind === 'update' ? 'updateCard' : call.kind}`, windows: settings.budget };
    const streams = contentMode === 'streaming' && (call.kind === 'send' || call.kind === 'update');
    return streams ? [main, { key: `dingtalk:${appKey}:streamCard`, windows: settings.budget }] : [main];
  };
}
