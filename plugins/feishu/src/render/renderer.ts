import type { CardRenderer, CardView } from '@progresscard/core/plugin';
import type { FeishuCard } from './payload.js';
import { layoutCard, type CardLayout, type CardRenderOptions } from './card.js';
import { renderFallbackCard } from './fallback.js';

/**
 * The Feishu renderer: `render` draws the main card, `renderContinuations` the follow-up cards of
 * a terminal answer that did not fit (sent by the core as replies to the main card),
 * `renderFallback` the plain-text card used after a rejection. Pure; the last layout is reused
 * when the core asks for the card and its continuations of the same view.
 */
export function createFeishuRenderer(options: CardRenderOptions): CardRenderer<FeishuCard> {
  let last: { view: CardView; layout: CardLayout } | undefined;
  const layout = (view: CardView): CardLayout => {
    if (last?.view !== view) last = { view, layout: layoutCard(view, options) };
    return last.layout;
  };
  return {
    render: (view) => layout(view).card,
    renderContinuations: (view) => layout(view).continuations,
    renderFallback: (view) => renderFallbackCard(view, options),
  };
}
