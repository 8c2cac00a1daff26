import type { CardView } from '../../card/view.js';
import type { CardRenderer } from '../../plugin/contract.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';

/** A continuation part to deliver: its index (0 = part 2), payload, render key and the view it came from. */
export interface PendingPart {
  readonly index: number;
  readonly payload: unknown;
  readonly key: string;
  readonly view: CardView;
}

/**
 * The continuation parts of `view` (see `CardRenderer.renderContinuations`): none when the renderer
 * has none, or when it throws (a plugin bug; `onError` is told).
 */
export function renderContinuationParts(renderer: CardRenderer<unknown>, view: CardView, onError: (error: unknown) => void): readonly unknown[] {
  const render = renderer.renderContinuations;
  if (!render) return [];
  try {
    return render.call(renderer, view);
  } catch (error) {
    onError(error);
    return [];
  }
}

/**
 * The first continuation part the platform does not show as rendered now; only once the main
 * message holds an accepted state (a part replies to it).
 */
export function nextPendingPart(renderer: CardRenderer<unknown>, record: CardDeliveryRecord, view: CardView, onError: (error: unknown) => void): PendingPart | undefined {
  if (!record.hasAcceptedState || !renderer.renderContinuations) return undefined;
  const payloads = renderContinuationParts(renderer, view, onError);
  const keys = payloads.map((payload) => JSON.stringify(payload));
  const index = record.parts.nextPending(keys);
  return index === undefined ? undefined : { index, payload: payloads[index], key: keys[index]!, view };
}
