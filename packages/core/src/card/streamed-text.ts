import { capText, MAX_ANSWER_CHARS, MAX_THINKING_CHARS } from './card-limits.js';
import { wellFormed } from './format/text.js';
import { takeAnswerImages, type AnswerImages } from './images.js';
import type { Redact } from './redaction.js';
import { CumulativeDeltas } from './cumulative-delta.js';
import { TextBuffer, type TextBufferLimits, type TextKind } from './text-buffer.js';

/**
 * The run's thinking and answer text as the card shows it: streamed deltas wait in a
 * {@link TextBuffer} until released; answer segments that a tool call or a round separated start
 * a new paragraph; a final answer given with `run.completed` replaces the streamed one.
 */
export class StreamedText {
  private thinking = '';
  private answer = '';
  private finalAnswer: string | undefined;
  /** Last character of the answer so far (shown or buffered); '' before any. */
  private answerEnd = '';
  /** True when a tool call or a round came between answer segments: the next one starts a new paragraph. */
  private answerBreakDue = false;
  /** The last answer taken apart into text and images (the view asks often, the answer changes rarely). */
  private answerImages: { readonly answer: string; readonly result: AnswerImages } | undefined;
  /** The thinking text last shown, redacted (redacting is done once per change, not per view). */
  private thinkingShown = { raw: '', shown: '' };
  private readonly buffer: TextBuffer;
  /** Strips cumulative snapshots sent as deltas down to what they add. */
  private readonly deltas = new CumulativeDeltas();
  /** Characters of streamed answer / thinking left out at {@link MAX_ANSWER_CHARS} / {@link MAX_THINKING_CHARS}. */
  private readonly dropped: Record<TextKind, number> = { answer: 0, thinking: 0 };
  /** Characters of the final answer left out at {@link MAX_ANSWER_CHARS}. */
  private finalDropped = 0;

  /**
   * `redact` replaces secrets in the shown text; it runs on the whole text, so a secret split
   * across streamed deltas is still found.
   */
  constructor(limits: TextBufferLimits, private readonly redact: Redact) {
    this.buffer = new TextBuffer(limits);
  }

  /** Epoch ms of the oldest buffered segment; undefined when none is pending. */
  get pendingSince(): number | undefined {
    return this.buffer.pendingSince;
  }

  /** True when any text was shown or is buffered. */
  get hasContent(): boolean {
    return this.answer !== '' || this.thinking !== '' || !this.buffer.isEmpty;
  }

  /** The thinking text shown so far. */
  get shownThinking(): string {
    if (this.thinkingShown.raw !== this.thinking) this.thinkingShown = { raw: this.thinking, shown: this.redact(this.thinking) };
    return this.thinkingShown.shown;
  }

  /**
   * One delta at `at` (epoch ms); returns true when it filled the buffer, which then released its
   * text onto the card. A cumulative snapshot adds only its new part (see {@link CumulativeDeltas}).
   */
  push(kind: TextKind, text: string, at: number): boolean {
    const taken = this.deltas.take(kind, text);
    if (!taken) return false;
    // A delta longer than the card holds is cut here, before it is buffered, made well-formed or redacted.
    const { text: fresh, dropped } = capText(taken, kind === 'answer' ? MAX_ANSWER_CHARS : MAX_THINKING_CHARS);
    this.dropped[kind] += dropped;
    const segment = kind === 'answer' ? this.answerSegment(fresh) : fresh;
    const full = this.buffer.push(kind, segment, at);
    if (full) this.release();
    return full;
  }

  /** A tool call or a round came: the next answer segment starts a new paragraph. */
  breakParagraph(): void {
    this.deltas.reset();
    this.answerBreakDue = true;
  }

  /** Moves buffered text onto the card; returns true when there was any. */
  release(): boolean {
    if (this.buffer.isEmpty) return false;
    const { answer, thinking } = this.buffer.drain();
    this.answer = this.append('answer', this.answer, answer, MAX_ANSWER_CHARS);
    this.thinking = this.append('thinking', this.thinking, thinking, MAX_THINKING_CHARS);
    return true;
  }

  /** `shown + added` up to `max` characters; what does not fit counts as dropped. */
  private append(kind: TextKind, shown: string, added: string, max: number): string {
    if (!added) return shown;
    const { text, dropped } = capText(added, max - shown.length);
    this.dropped[kind] += dropped;
    return text ? shown + wellFormed(text) : shown;
  }

  /**
   * The run completed with `answer`: a non-blank one replaces the streamed answer. Cut at
   * {@link MAX_ANSWER_CHARS} before anything else reads it.
   */
  setFinalAnswer(answer: string | undefined): void {
    if (!answer?.trim()) return;
    const { text, dropped } = capText(answer, MAX_ANSWER_CHARS);
    this.finalAnswer = wellFormed(text);
    this.finalDropped = dropped;
  }

  /** Characters of the shown answer's source left out at {@link MAX_ANSWER_CHARS} (0 when none). */
  get answerDropped(): number {
    return this.finalAnswer === undefined ? this.dropped.answer : this.finalDropped;
  }

  /** Characters of thinking left out at {@link MAX_THINKING_CHARS} (0 when none). */
  get thinkingDropped(): number {
    return this.dropped.thinking;
  }

  /** The answer to show, its images taken out. */
  shownAnswer(): AnswerImages {
    const text = this.finalAnswer ?? this.answer;
    if (this.answerImages?.answer !== text) this.answerImages = { answer: text, result: takeAnswerImages(this.redact(text)) };
    return this.answerImages.result;
  }

  /**
   * `text` as the next answer segment: when a tool call or a new round came since the last answer
   * text, it starts a new paragraph (a blank line), so "first." and "The timeout" are not glued.
   */
  private answerSegment(text: string): string {
    const separate = this.answerBreakDue && this.answerEnd !== '' && !/\s/.test(this.answerEnd) && !/^\s/.test(text);
    this.answerBreakDue = false;
    const segment = separate ? `\n\n${text}` : text;
    this.answerEnd = segment.slice(-1);
    return segment;
  }
}
