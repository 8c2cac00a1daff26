import type { TextKind } from './text-buffer.js';

/**
 * Shortest text so far that a delta must repeat whole to be taken as a cumulative snapshot, in
 * UTF-16 units: below it a genuine repeat ("ha" + "ha") is far likelier than a snapshot.
 */
const MIN_SNAPSHOT_PREFIX = 4;

/**
 * Recognises cumulative "deltas": some OpenAI-compatible upstreams (DashScope, some proxies) send
 * the whole text so far in every chunk instead of the new part, so appending them shows the answer
 * many times over ("The buildThe build failed because…"). See QwenLM/qwen-code#3896 and
 * openclaw/openclaw#74143.
 *
 * Per text kind, within one segment (the text since the last tool call or round, where a model
 * message starts afresh): a delta that starts with the whole segment so far (at least
 * {@link MIN_SNAPSHOT_PREFIX} long) and adds to it is a snapshot, and only what it adds is new.
 * Once a segment was seen to be cumulative, a delta equal to the segment so far adds nothing (the
 * snapshot repeated). Anything else is appended as it is, so a genuine repeat stays.
 */
export class CumulativeDeltas {
  private readonly segments: Record<TextKind, { text: string; cumulative: boolean }> = {
    answer: { text: '', cumulative: false },
    thinking: { text: '', cumulative: false },
  };

  /** The part of `text` that is new for `kind`. */
  take(kind: TextKind, text: string): string {
    const segment = this.segments[kind];
    const soFar = segment.text;
    let fresh = text;
    if (soFar.length >= MIN_SNAPSHOT_PREFIX && text.startsWith(soFar)) {
      if (text.length > soFar.length) {
        segment.cumulative = true;
        fresh = text.slice(soFar.length);
      } else if (segment.cumulative) {
        fresh = '';
      }
    }
    segment.text += fresh;
    return fresh;
  }

  /** A tool call or round came: the next text is a new message, not a continuation. */
  reset(): void {
    for (const segment of Object.values(this.segments)) {
      segment.text = '';
      segment.cumulative = false;
    }
  }
}
