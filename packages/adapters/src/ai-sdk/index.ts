import type { ProgressCard } from '@progresscard/core';
import { mirrorStream, withToolEffects, type LiveRunResult, type MirrorOptions } from '../shared/mirror.js';
import { aiSdkMapper, type AiSdkStreamPart } from './map-parts.js';

export { aiSdkMapper, type AiSdkStreamPart } from './map-parts.js';
export type { LiveRunResult, MirrorOptions, StreamMapper } from '../shared/mirror.js';

/**
 * Mirrors a Vercel AI SDK run onto a card: `await mirrorAiSdk(streamText({...}).fullStream, card)`.
 * Reads the stream to its end (so iterate `fullStream` here, not elsewhere), mapping its parts as
 * {@link aiSdkMapper} describes; works with the part shapes of `ai` 6 and 7. Imports nothing from `ai`.
 *
 * @returns The card's final status once the stream ended.
 * @throws Whatever iterating the stream throws (after the card shows it failed, or cancelled for an abort).
 */
export function mirrorAiSdk(fullStream: AsyncIterable<AiSdkStreamPart>, card: ProgressCard, options: MirrorOptions = {}): Promise<LiveRunResult> {
  return mirrorStream(fullStream, card, withToolEffects(aiSdkMapper(options)), options.signal);
}
