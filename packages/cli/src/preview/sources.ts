import type { ChannelDescriptor, EmulatorCall, RunningEmulator } from '../channels/descriptor.js';
import { countCalls, MAX_PREVIEW_CALLS, type PanelSnapshot, type PreviewCall, type PreviewCard, type PreviewSource } from './model.js';

/**
 * Preview sources that read what an emulator *accepted* (its read-back), so the page shows what a
 * chat user would see, plus every call with its answer for the timeline. One mapping for every
 * channel; what differs per platform comes from the channel's descriptor.
 */

/** Memoizes rendered HTML per id and revision, so polling does not re-render unchanged cards. */
class HtmlCache {
  private readonly entries = new Map<string, { revision: string; html: string }>();
  get(id: string, revision: string, render: () => string): string {
    const hit = this.entries.get(id);
    if (hit && hit.revision === revision) return hit.html;
    const html = render();
    this.entries.set(id, { revision, html });
    return html;
  }
}

/** An emulator's calls as the timeline shows them: token calls left out, codes only on rejected calls. */
export function previewCalls(calls: readonly EmulatorCall[], mapping: ChannelDescriptor['preview']): PreviewCall[] {
  return calls
    .filter((c) => !mapping.isTokenRoute(c.route))
    .map((c) => ({
      seq: c.seq,
      at: c.at,
      route: c.route,
      outcome: c.outcome,
      status: c.status,
      code: c.outcome === 'rejected' ? c.code : undefined,
      msg: c.outcome === 'rejected' ? c.msg : undefined,
      key: c.key,
      rateLimited: mapping.isRateLimited(c),
    }));
}

/** A running emulator of the channel `descriptor` as a preview panel. */
export function emulatorPreviewSource<Emulator extends RunningEmulator>(
  descriptor: ChannelDescriptor<string, Emulator>,
  emulator: Emulator,
): PreviewSource {
  const cache = new HtmlCache();
  const { id, label, preview } = descriptor;
  const calls = () => previewCalls(preview.calls(emulator), preview);
  return {
    id,
    label,
    subscribe: (listener) => emulator.onChange(() => listener()),
    counts: () => countCalls(calls()),
    ...(preview.click ? { click: (click) => preview.click!(emulator, click) } : {}),
    snapshot(): PanelSnapshot {
      const cards: PreviewCard[] = preview.cards(emulator).map((card) => ({
        id: card.id,
        html: cache.get(card.id, card.revision, () => card.render()),
        state: card.state,
        createdAt: card.createdAt,
        updatedAt: card.updatedAt,
        version: card.version,
      }));
      const all = calls();
      return { id, label, baseUrl: emulator.baseUrl, cards, calls: all.slice(-MAX_PREVIEW_CALLS), counts: countCalls(all) };
    },
  };
}
