import type { Locale, MessageRef, StreamAppendRequest, StreamStartRequest, StreamStopRequest, StreamTransport } from '@progresscard/core/plugin';
import { ADAPTIVE_CARD_CONTENT_TYPE, type TeamsActivity } from '../render/payload.js';
import type { TeamsRenderer } from '../render/renderer.js';
import { TeamsLocalError } from './classify.js';
import type { TeamsTarget } from './target.js';
import type { TeamsTransport } from './transport.js';

/** What the plugin remembers of an open stream. */
interface OpenStream {
  readonly conversationId: string;
  readonly serviceUrl: string;
  /** Latest `streamSequence` sent. */
  sequence: number;
  /** The response text streamed so far (Teams wants the whole text in every chunk). */
  text: string;
  /** The latest informative line sent. */
  informative?: string;
  /** Answer characters (UTF-16 units) earlier streams of the card showed before this one opened. */
  readonly from: number;
  /** The card's locale (for the notice under a long table). */
  readonly locale: Locale;
}

/** The first `max` code points of `text`. */
function firstCodePoints(text: string, max: number): string {
  return text.length <= max ? text : [...text].slice(0, Math.max(0, max)).join('');
}

/** A `streaminfo` entity (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux). */
function streamInfo(streamType: 'informative' | 'streaming' | 'final', streamId?: string, streamSequence?: number): Record<string, unknown> {
  return { type: 'streaminfo', streamType, ...(streamId ? { streamId } : {}), ...(streamSequence !== undefined ? { streamSequence } : {}) };
}

/**
 * Teams' streaming in 1:1 chats (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux): a
 * `typing` activity with a `streaminfo` entity opens the stream (the answer's id is the stream id), each
 * later chunk names it with `streamSequence` one higher and carries the whole text so far ("bot messages must
 * include previously streamed content": the core's `full` text mode), and a `message` with `streamType: final`
 * (no sequence) closes it, with the card's status, tools and footer as an Adaptive Card attachment
 * (attachments are allowed only there). Before the answer has text the stream shows an informative update
 * (the latest tool call, ≤ 1000 characters). The core keeps one call in flight per stream, as Teams asks
 * ("call the next streaming API only after receiving a successful response"), and rolls over before the two
 * minutes. Errors are the channel's `classify`: the user's Stop → `stopped-by-user`, past two minutes →
 * `stream-ended`.
 */
export class TeamsStreamTransport implements StreamTransport<TeamsTarget> {
  readonly #transport: TeamsTransport;
  readonly #renderer: TeamsRenderer;
  readonly #open = new Map<string, OpenStream>();
  readonly #started = new Map<string, MessageRef>();

  constructor(transport: TeamsTransport, renderer: TeamsRenderer) {
    this.#transport = transport;
    this.#renderer = renderer;
  }

  async start(request: StreamStartRequest<TeamsTarget>): Promise<MessageRef> {
    const known = this.#started.get(request.idempotencyKey);
    if (known) return known;
    const conversation = this.#transport.conversation(request.target);
    const serviceUrl = this.#transport.serviceUrlOf(conversation);
    const from = Math.max(0, request.view.answer.length - request.content.text.length);
    const text = this.#renderer.liveStreamText(this.#capped(request.content.text, from), request.view);
    const informative = text === '' ? this.#renderer.informative(request.view) : undefined;
    const activity: TeamsActivity = { type: 'typing', text: informative ?? text, entities: [streamInfo(informative ? 'informative' : 'streaming', undefined, 1)] };
    const answer = await this.#transport.call(serviceUrl, 'sendToConversation', [conversation.id], activity);
    if (!answer.id) throw new TeamsLocalError('the connector answered a stream start without a stream id');
    const ref: MessageRef = { id: answer.id, extra: { conversationId: conversation.id, serviceUrl, stream: true } };
    this.#open.set(ref.id, { conversationId: conversation.id, serviceUrl, sequence: 1, text: informative ? '' : text, from, locale: request.view.locale, ...(informative ? { informative } : {}) });
    this.#started.set(request.idempotencyKey, ref);
    if (this.#started.size > 10_000) this.#started.delete(this.#started.keys().next().value as string);
    return ref;
  }

  async append(request: StreamAppendRequest): Promise<void> {
    const stream = this.#stream(request.stream);
    const text = this.#renderer.liveStreamText(this.#capped(request.content.text, stream.from), stream);
    // A chunk must carry the text streamed before it: a text that does not (a prose line that became a table header) waits for the final.
    if (text !== stream.text && text !== '' && text.startsWith(stream.text)) {
      await this.#chunk(stream, { type: 'typing', text, entities: [streamInfo('streaming', request.stream.id, stream.sequence + 1)] });
      stream.text = text;
      return;
    }
    // Before the answer has text, the latest tool call as the informative line (Teams shows it as a progress bar).
    const running = request.content.tasks?.filter((task) => task.status === 'in_progress').at(-1) ?? request.content.tasks?.at(-1);
    if (stream.text === '' && running) {
      const line = running.title.slice(0, 1000);
      if (line === stream.informative || line === '') return;
      await this.#chunk(stream, { type: 'typing', text: line, entities: [streamInfo('informative', request.stream.id, stream.sequence + 1)] });
      stream.informative = line;
    }
    // Nothing new: Teams streams have no idle expiry, so no keep-alive is needed.
  }

  async stop(request: StreamStopRequest): Promise<void> {
    const stream = this.#stream(request.stream);
    // The card's share of the answer only (the rest continues in reply messages the core sends after the
    // final): uncapped, a long answer made the closing message too large (403 ContentStreamNotAllowed).
    const from = request.content.text === '' ? stream.from : Math.max(0, request.view.answer.length - request.content.text.length);
    const share = request.content.text === '' ? stream.text : this.#renderer.streamText(request.view, from);
    // The closing text must start with what was streamed (else 400 "Streamed text must include the previously
    // streamed content"): if the share ends before it (a rare cut, e.g. many surrogate pairs), the streamed
    // text stands and the first reply repeats its tail.
    const text = share.startsWith(stream.text) ? share : stream.text;
    const card = this.#renderer.streamCard(request.view, request.reason);
    const activity: TeamsActivity = {
      type: 'message',
      ...(text !== '' ? { text, textFormat: 'markdown' } : {}),
      attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, content: card }],
      entities: [streamInfo('final', request.stream.id)],
    };
    await this.#transport.call(stream.serviceUrl, 'sendToConversation', [stream.conversationId], activity);
    this.#open.delete(request.stream.id);
  }

  /** A stream chunk's text cut to the card's share (what earlier streams showed counts against it); the closing message cuts it exactly. */
  #capped(text: string, from: number): string {
    return firstCodePoints(text, this.#renderer.streamTextChars - from);
  }

  async #chunk(stream: OpenStream, activity: TeamsActivity): Promise<void> {
    await this.#transport.call(stream.serviceUrl, 'sendToConversation', [stream.conversationId], activity);
    stream.sequence += 1;
  }

  #stream(ref: MessageRef): OpenStream {
    const known = this.#open.get(ref.id);
    if (known) return known;
    // A stream this process did not open (a restart): continue from what the ref says, sequence unknown.
    const stream: OpenStream = { conversationId: String(ref.extra?.conversationId), serviceUrl: this.#transport.serviceUrlOf(ref.extra), sequence: 1, text: '', from: 0, locale: 'en' };
    this.#open.set(ref.id, stream);
    return stream;
  }
}
