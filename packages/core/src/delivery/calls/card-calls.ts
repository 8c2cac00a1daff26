import type { CardView } from '../../card/view.js';
import type { BudgetedCall, ExtraCallKind, ExtraCalls, MessageRef } from '../../plugin/contract.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';

/**
 * The {@link ExtraCalls} of one card message: each extra call (an image upload, a reaction, a
 * resend) waits for a slot under its budget keys like a send or an update and counts as a call of
 * the card. A budget store that fails lets the call go (a lost slot is better than a stuck card).
 */
export function extraCallsOf(record: CardDeliveryRecord, acquire: (kind: ExtraCallKind) => Promise<void>): ExtraCalls {
  return {
    async acquire(kind) {
      await acquire(kind).catch(() => undefined);
      record.callSpent();
    },
    spent(count = 1) {
      for (let i = 0; i < count; i += 1) record.callSpent();
    },
  };
}

/**
 * The call an extra call is budgeted as: a `resend` is the main call once more; an image upload or
 * a reaction is its own kind of call (its own API route), for the card's target and message.
 */
export function extraCallBudget(kind: ExtraCallKind, main: BudgetedCall, message: MessageRef | undefined): BudgetedCall {
  if (kind === 'resend') return main;
  return { kind, target: main.target, ...(message && { message }) };
}

/**
 * A final view with the calls the card message spent against the channel's monthly quota (its
 * earlier calls and this final's `finalCalls`, as the transport declares them), when a quota applies (`monthlyQuota`). Only the final carries
 * it: a count on a running card would change with every call and ask for yet another update.
 */
export function withQuota(view: CardView, record: CardDeliveryRecord, final: boolean, monthlyQuota: number | undefined, finalCalls = 1): CardView {
  if (!final || monthlyQuota === undefined) return view;
  return { ...view, footer: { ...view.footer, quota: { calls: record.callsSpent + finalCalls, monthlyQuota } } };
}
