import type { CardView } from '../../card/view.js';
import type { MessageRef } from '../../plugin/contract.js';
import { rollOverMarginMs, streamTaskStatus, type StreamContent, type StreamingMode, type StreamTask } from '../../plugin/stream-contract.js';
import { STREAM_TRANSITIONS, type StreamCallOp, type StreamPhase } from './stream-phases.js';

/** The next stream call of a card, with the content it carries and the answer text it adds. */
export interface StreamStep {
  readonly op: StreamCallOp;
  readonly content: StreamContent;
  /** The answer characters this call adds to what the chat shows (its delta, also in `full` mode). */
  readonly addedText: string;
  readonly keepAlive: boolean;
}

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end);
}

const taskOf = (tool: CardView['tools'][number]): StreamTask => ({
  id: tool.callId,
  title: tool.detail ? `${tool.name} ${tool.detail}` : tool.name,
  status: streamTaskStatus(tool.state),
  ...(tool.summary ? { output: tool.summary } : {}),
});

/**
 * The native stream of one card: its phase (a {@link STREAM_TRANSITIONS} state), the stream
 * message, its age and last accepted call, and what the chat already shows (answer text, plan,
 * task steps), so that each call carries only what is new and no character is lost or repeated
 * across roll-overs.
 */
export class StreamSession {
  private state: StreamPhase = 'idle';
  private ref: MessageRef | undefined;
  private streams = 0;
  private startedAt = 0;
  private lastAcceptedAt = 0;
  /** Answer text the chat shows, over every stream of the card. */
  private shownText = '';
  /** Where the current stream's text starts in {@link shownText}. */
  private streamTextStart = 0;
  private shownPlan: string | undefined;
  private readonly shownTasks = new Map<string, string>();
  private stopNotified = false;

  /**
   * @param paceMs the card's per-card interval (ms): how long after one call the next may start at
   *   the earliest. A stream rolls over at the last call that can start before its margin, not at
   *   the first call after it: by then the stream may be past its end of life and is left without
   *   its stop (with a 15 s interval and a 60 s lifetime every stream ran out unstopped, its
   *   roll-over notice missing; the held text opened the next stream). Alike when the interval is
   *   half the stream's life or more (Teams with a 2 s life and its 1 s interval): then the call
   *   after a stream's start is its stop, and its text opens the next stream. The final's stop
   *   needs no later call and goes while the stream is within its margin. An interval that leaves
   *   no call after the start within the margin is refused when the channel is built
   *   (`streamLifetimeProblem` with the interval).
   */
  constructor(
    private readonly mode: StreamingMode,
    private readonly paceMs = 0,
  ) {}

  get phase(): StreamPhase { return this.state; }
  get stream(): MessageRef | undefined { return this.ref; }
  /** Streams started so far (the next start's `sequence`). */
  get sequence(): number { return this.streams; }
  /** The answer text the chat shows (every stream's, in order). */
  get text(): string { return this.shownText; }

  /** Epoch ms the stream refuses calls from on its age; infinite without a maximum age. */
  private endOfLife(): number {
    return this.mode.lifetime.maxAgeMs === undefined ? Number.POSITIVE_INFINITY : this.startedAt + this.mode.lifetime.maxAgeMs;
  }

  /**
   * The next call for `view` at `now`, or undefined when the chat shows everything (then
   * {@link wakeAt} says when a keep-alive is due). An open stream past its end of life is
   * taken as ended (no call: the platform closed it) and the content goes into a fresh stream.
   */
  next(view: CardView, final: boolean, now: number): StreamStep | undefined {
    if (this.state === 'streaming' && now >= this.endOfLife()) this.ended();
    if (this.state !== 'idle' && this.state !== 'streaming') return undefined;
    const margin = rollOverMarginMs(this.mode.lifetime);
    const opening = this.state === 'idle';
    const { content, addedText, full, complete } = this.pending(view, opening);
    const hasContent = addedText !== '' || content.plan !== undefined || (content.tasks?.length ?? 0) > 0;
    if (opening) return hasContent || final ? { op: 'start', content, addedText, keepAlive: false } : undefined;
    // The final's stop is the stream's last call: it needs no later call to fit in the stream's life.
    const closing = final && complete && !full;
    const rollOverDue = now + (closing ? 0 : this.paceMs) >= this.endOfLife() - margin || full;
    if ((hasContent || final || this.mode.lifetime.closeBeforeMaxAge === true) && rollOverDue) return { op: 'stop-roll-over', content: this.emptyContent(), addedText: '', keepAlive: false };
    // The final closes the stream only with the last of the text; before that, text goes as appends.
    if (closing) return { op: 'stop-final', content, addedText, keepAlive: false };
    if (hasContent) return { op: 'append', content, addedText, keepAlive: false };
    const idle = this.mode.lifetime.idleExpiryMs;
    if (idle !== undefined && now >= this.lastAcceptedAt + idle - margin) return { op: 'append', content, addedText: '', keepAlive: true };
    return undefined;
  }

  /**
   * A keep-alive for the open stream when one is due at `now` (its idle expiry is within the margin),
   * carrying nothing new: for a card whose new content the call cap holds back, to be sent as
   * {@link closing} (the stream must not expire meanwhile: a platform that acknowledges calls to an
   * expired stream without showing them, WeCom, would swallow the final). Undefined when none is due.
   */
  keepAliveDue(now: number): StreamStep | undefined {
    const idle = this.mode.lifetime.idleExpiryMs;
    if (this.state !== 'streaming' || idle === undefined || now >= this.endOfLife()) return undefined;
    if (now < this.lastAcceptedAt + idle - rollOverMarginMs(this.mode.lifetime)) return undefined;
    return { op: 'append', content: this.emptyContent(), addedText: '', keepAlive: true };
  }

  /**
   * The roll-over stop of the open stream, carrying nothing new: for a stream whose due keep-alive
   * the call cap holds back (the stream is closed rather than left to expire; held text opens a
   * fresh stream when the cap lets it, or with the final).
   */
  closing(): StreamStep {
    return { op: 'stop-roll-over', content: this.emptyContent(), addedText: '', keepAlive: false };
  }

  /** Epoch ms a keep-alive (or the close of a quiet stream, `closeBeforeMaxAge`) is due for the open stream; undefined when none will be. */
  wakeAt(): number | undefined {
    const { idleExpiryMs: idle, closeBeforeMaxAge } = this.mode.lifetime;
    if (this.state !== 'streaming') return undefined;
    const margin = rollOverMarginMs(this.mode.lifetime);
    const keepAlive = idle === undefined ? Number.POSITIVE_INFINITY : this.lastAcceptedAt + idle - margin;
    const close = closeBeforeMaxAge === true ? this.endOfLife() - margin : Number.POSITIVE_INFINITY;
    const at = Math.min(keepAlive, close);
    return Number.isFinite(at) ? at : undefined;
  }

  /** The platform accepted `step` at `now` (a start answered with `stream`). */
  accepted(step: StreamStep, now: number, stream?: MessageRef): void {
    this.lastAcceptedAt = now;
    if (step.op === 'start') {
      this.moveTo('streaming');
      this.ref = stream;
      this.streams += 1;
      this.startedAt = now;
      this.streamTextStart = this.shownText.length;
    }
    this.shownText += step.addedText;
    if (step.content.plan !== undefined) this.shownPlan = JSON.stringify(step.content.plan);
    for (const task of step.content.tasks ?? []) this.shownTasks.set(task.id, JSON.stringify(task));
    if (step.op === 'stop-roll-over') this.ended();
    if (step.op === 'stop-final') this.moveTo('finished');
  }

  /** The stream no longer takes calls (expired, too old): the next content opens a fresh one. */
  ended(): void {
    if (this.state === 'streaming') this.moveTo('idle');
  }

  /** The stream could not be opened: the card uses the channel's edit mode. */
  useEditMode(): void {
    this.moveTo('edit');
  }

  /** The user stopped the stream on the platform. Returns true the first time (tell the card once). */
  stoppedByUser(): boolean {
    if (this.state !== 'stopped-by-user') this.moveTo('stopped-by-user');
    const first = !this.stopNotified;
    this.stopNotified = true;
    return first;
  }

  private emptyContent(): StreamContent {
    return { text: this.mode.text === 'full' ? this.shownText.slice(this.streamTextStart) : '' };
  }

  /** What the chat does not show yet; `full` when the open stream has no room for more text. */
  private pending(view: CardView, opening: boolean): { content: StreamContent; addedText: string; full: boolean; complete: boolean } {
    const answer = view.answer.startsWith(this.shownText) ? view.answer : this.shownText + view.answer.slice(this.shownText.length);
    const streamText = opening ? '' : this.shownText.slice(this.streamTextStart);
    const max = this.mode.maxTextCharsPerCall ?? Number.POSITIVE_INFINITY;
    // `full` mode sends the stream's whole text, so one stream holds at most `max` characters.
    const room = this.mode.text === 'full' ? max - streamText.length : max;
    const rest = answer.slice(this.shownText.length);
    const addedText = cutText(rest, Math.max(0, room));
    const chunks = this.mode.chunks;
    let plan: StreamContent['plan'];
    if (chunks.includes('plan') && view.plan && (opening || JSON.stringify(view.plan) !== this.shownPlan)) plan = view.plan;
    let tasks: StreamTask[] | undefined;
    if (chunks.includes('tasks')) {
      // A fresh stream shows the tasks still going again (a roll-over must not hide them).
      tasks = view.tools.map(taskOf).filter((task) => this.shownTasks.get(task.id) !== JSON.stringify(task) || (opening && task.status === 'in_progress'));
    }
    const text = this.mode.text === 'full' ? streamText + addedText : addedText;
    return {
      content: { text, ...(plan ? { plan } : {}), ...(tasks && tasks.length > 0 ? { tasks } : {}) },
      addedText,
      // No room for the next character (a surrogate pair needs two units).
      full: rest !== '' && addedText === '',
      complete: addedText.length === rest.length,
    };
  }

  private moveTo(next: StreamPhase): void {
    if (next === this.state) return;
    if (!STREAM_TRANSITIONS[this.state].includes(next)) throw new Error(`stream cannot move from ${this.state} to ${next}`);
    this.state = next;
  }
}
