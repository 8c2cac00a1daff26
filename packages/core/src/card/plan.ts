import type { PlanItem } from '../events/contract.js';
import { wellFormed } from './format/text.js';
import type { PlanView } from './view.js';

/** Longest plan item text kept, in characters (a checklist line, not a document). */
const MAX_PLAN_ITEM_CHARS = 500;
/** Most plan items kept; a longer plan keeps its first ones. */
const MAX_PLAN_ITEMS = 100;

/**
 * The plan as the card shows it: the latest `plan.updated` list, texts cleaned and bounded, with
 * the count of completed items. `undefined` for an empty list (no plan shown).
 */
export function toPlanView(items: readonly PlanItem[]): PlanView | undefined {
  const kept = items
    .slice(0, MAX_PLAN_ITEMS)
    .map((item) => ({ text: wellFormed(item.text.replace(/\s+/g, ' ').trim().slice(0, MAX_PLAN_ITEM_CHARS)), status: item.status }))
    .filter((item) => item.text !== '');
  if (kept.length === 0) return undefined;
  return { items: kept, done: kept.filter((item) => item.status === 'completed').length, total: kept.length };
}
