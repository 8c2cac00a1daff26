import type { CardView } from '../card/view.js';
import type { ExtraCalls } from '../plugin/contract.js';
import type { CardDeliveryRecord } from './card-delivery-record.js';

/**
 * The {@link ExtraCalls} of one card message: each extra call (an image upload, a reaction) waits
 * for the channel's budget like a send or an update and counts as a call of the card. A budget
 * store that fails lets the call go (a lost slot is better than a card stuck on its images).
 */
export function extraCallsOf(record: CardDeliveryRecord, acquire: () => Promise<void>): ExtraCalls {
  return {
    async acquire() {
      await acquire().catch(() => undefined);
      record.callSpent();
    },
  };
}

/**
 * A final view with the calls the card message spent against the channel's monthly quota (its
 * earlier calls and this final's call), when a quota applies (`monthlyQuota`). Only the final carries
 * it: a count on a running card would change with every call and ask for yet another update.
 */
export function withQuota(view: CardView, record: CardDeliveryRecord, final: boolean, monthlyQuota: number | undefined): CardView {
  if (!final || monthlyQuota === undefined) return view;
  return { ...view, footer: { ...view.footer, quota: { calls: record.callsSpent + 1, monthlyQuota } } };
}
