/** True for the first half (U+D800–U+DBFF) of a UTF-16 surrogate pair. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Which text a delta belongs to. */
export type TextKind = 'answer' | 'thinking';

/** Thresholds of the verbose output buffer (seed 003). */
export interface TextBufferLimits {
  /** Release when this many segments are pending (default 50). */
  readonly maxSegments: number;
  /** Release when this many characters are pending (default 8000). */
  readonly maxChars: number;
}

/** Default thresholds: 50 segments or 8000 characters. */
export const DEFAULT_TEXT_BUFFER_LIMITS: TextBufferLimits = { maxSegments: 50, maxChars: 8000 };

/**
 * Buffers streamed text deltas so a card is not re-rendered for every token. Text is released
 * when {@link TextBufferLimits} are reached, when the owner's debounce window has passed since
 * the oldest pending segment ({@link pendingSince}), or on a terminal event.
 */
export class TextBuffer {
  private segments: { kind: TextKind; text: string }[] = [];
  private chars = 0;
  /** Epoch ms of the oldest pending segment; undefined when nothing is pending. */
  pendingSince: number | undefined;

  constructor(private readonly limits: TextBufferLimits = DEFAULT_TEXT_BUFFER_LIMITS) {}

  /** A high surrogate that ended the last delta of each kind, waiting for its low half. */
  private readonly heldHalf: Record<TextKind, string> = { answer: '', thinking: '' };

  /**
   * Adds a segment (empty text is ignored); returns true when a threshold is reached. A delta that
   * ends in the first half of a surrogate pair (half an emoji) keeps that half back until the next
   * delta of its kind brings the other half, so no card ever shows a lone surrogate.
   */
  push(kind: TextKind, delta: string, now: number): boolean {
    let text = this.heldHalf[kind] + delta;
    this.heldHalf[kind] = '';
    if (text && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.heldHalf[kind] = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (!text) return false;
    this.segments.push({ kind, text });
    this.chars += text.length;
    this.pendingSince ??= now;
    return this.segments.length >= this.limits.maxSegments || this.chars >= this.limits.maxChars;
  }

  /** True when text is pending. */
  get isEmpty(): boolean {
    return this.segments.length === 0;
  }

  /** Removes and returns the pending text, joined per kind. */
  drain(): { answer: string; thinking: string } {
    let answer = '';
    let thinking = '';
    for (const segment of this.segments) {
      if (segment.kind === 'answer') answer += segment.text;
      else thinking += segment.text;
    }
    this.segments = [];
    this.chars = 0;
    this.pendingSince = undefined;
    return { answer, thinking };
  }
}
