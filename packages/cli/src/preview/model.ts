/** What the preview page shows for one channel; sent to the browser as JSON over server-sent events. */

import type { EmulatorCall, PreviewClick, PreviewClickResult } from '../channels/descriptor.js';

/** One platform API call as the emulator answered it, as the preview shows it. */
export interface PreviewCall extends EmulatorCall {
  /** True when the platform answered "too many requests" (a rate-limit answer). */
  readonly rateLimited: boolean;
}

/** One card (message) as the chat user sees it now. */
export interface PreviewCard {
  readonly id: string;
  /** The rendered card, safe HTML. */
  readonly html: string;
  /** Platform state: Feishu header template colour, DingTalk AI-card state. */
  readonly state: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Accepted changes so far. */
  readonly version: number;
}

/** Call counters of a channel (card routes only; token calls excluded). */
export interface PreviewCounts {
  readonly calls: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly rateLimited: number;
}

/** One panel of the page. */
export interface PanelSnapshot {
  readonly id: string;
  readonly label: string;
  /** Where the emulator listens, when there is one. */
  readonly baseUrl?: string;
  readonly cards: readonly PreviewCard[];
  /** The latest calls, oldest first (at most {@link MAX_PREVIEW_CALLS}). */
  readonly calls: readonly PreviewCall[];
  readonly counts: PreviewCounts;
}

/**
 * The `data-button` of the platform's own Stop control drawn on a live stream (Slack's stop of an
 * agent stream, Teams' Stop on a streaming message): a click asks the emulator for the user's stop
 * instead of a card button's callback.
 */
export const PLATFORM_STOP_BUTTON = 'platform-stop';

/** Calls kept per panel in a snapshot (the counters still cover all of them). */
export const MAX_PREVIEW_CALLS = 300;

/** A channel the preview server can show. */
export interface PreviewSource {
  readonly id: string;
  readonly label: string;
  snapshot(): PanelSnapshot;
  /** Call counters only (cheaper than a snapshot). */
  counts(): PreviewCounts;
  /** Calls `listener` after a change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Clicks a card button through the emulator's callback path (channels with controls). */
  click?(click: PreviewClick): Promise<PreviewClickResult>;
}

/** Counters over `calls`. */
export function countCalls(calls: readonly PreviewCall[]): PreviewCounts {
  let accepted = 0;
  let rateLimited = 0;
  for (const call of calls) {
    if (call.outcome === 'accepted') accepted += 1;
    if (call.rateLimited) rateLimited += 1;
  }
  return { calls: calls.length, accepted, rejected: calls.length - accepted, rateLimited };
}
