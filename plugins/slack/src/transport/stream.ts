import type { CardRenderer, MessageRef, StreamAppendRequest, StreamStartRequest, StreamStopRequest, StreamTransport } from '@progresscard/core/plugin';
import type { WebClient } from '@slack/web-api';
import type { SlackConfig } from '../config.js';
import type { SlackMessage } from '../render/payload.js';
import { streamChunks, streamStopBlocks } from '../render/stream-chunks.js';
import { SLACK_TEXTS } from '../render/texts.js';
import { SlackLocalError, ownLimit } from './classify.js';
import { SLACK_API_ROUTES } from './routes.js';
import type { SlackTarget } from './transport.js';

type Args<R extends keyof typeof SLACK_API_ROUTES> = Parameters<(typeof SLACK_API_ROUTES)[R]['call']>[1];

/**
 * Slack's native AI streaming (https://docs.slack.dev/reference/methods/chat.startStream,
 * …/chat.appendStream, …/chat.stopStream) for cards that reply in a thread: the stream opens as a
 * reply in the triggering message's thread (`thread_ts`), addressed to the requester
 * (`recipient_user_id`, `recipient_team_id`: "Required when streaming to channels"); the plan and
 * tool calls go as `plan_update` / `task_update` chunks (`task_display_mode` from the config), the
 * answer as `markdown_text`, the footer and final controls as `blocks` at stop. The thread shows
 * "is working…" (assistant.threads.setStatus, `chat:write` since 2026-03-05) from the stream's start;
 * Slack clears it by itself once a message is posted in the thread or after two minutes
 * (UNCONFIRMED whether a stream's appends count as that message). Errors are classified by the
 * channel's `classify` (`message_not_in_streaming_state` → `stream-ended`, `stopped_by_user` →
 * `stopped-by-user`, a 429 of a stream method or of the keep-alive's assistant.threads.setStatus →
 * `rate-limited` scoped to that method: Slack counts each method per app per workspace, and each
 * stream method has its own budget key).
 */
export class SlackStreamTransport implements StreamTransport<SlackTarget | string> {
  readonly #client: WebClient;
  readonly #config: SlackConfig;
  readonly #renderer: CardRenderer<SlackMessage>;
  readonly #started = new Map<string, MessageRef>();
  #teamId: Promise<string> | undefined;
  /** The locale each stream was opened in, for its closing blocks and status. */
  readonly #locale = new Map<string, 'zh-CN' | 'en'>();

  constructor(client: WebClient, config: SlackConfig, renderer: CardRenderer<SlackMessage>) {
    this.#client = client;
    this.#config = config;
    this.#renderer = renderer;
  }

  async start(request: StreamStartRequest<SlackTarget | string>): Promise<MessageRef> {
    const known = this.#started.get(request.idempotencyKey);
    if (known) return known;
    const target = typeof request.target === 'string' ? { channel: request.target } : (request.target ?? {});
    const channel = target.channel ?? this.#config.channel;
    const threadTs = request.replyToMessage?.messageId;
    if (!threadTs) throw new SlackLocalError('a Slack stream must reply in a thread (open the card with replyTo)');
    const recipients = channel.startsWith('D') || !request.requester ? {} : { recipient_user_id: request.requester.id, recipient_team_id: await this.#team() };
    const locale = request.view.locale;
    // The run's first stream: the thread says the app is working (best effort: a refused status changes nothing the card shows).
    if (request.sequence === 0) await SLACK_API_ROUTES.setStatus.call(this.#client, { channel_id: channel, thread_ts: threadTs, status: SLACK_TEXTS[locale].working }).catch(() => undefined);
    const chunks = streamChunks(request.content, locale);
    const { startStream } = SLACK_API_ROUTES;
    const answer = await ownLimit(startStream.method, () =>
      startStream.call(this.#client, {
        channel,
        thread_ts: threadTs,
        task_display_mode: this.#config.streaming.taskDisplayMode,
        ...recipients,
        ...(chunks.length > 0 ? { chunks } : { markdown_text: ' ' }),
      } as Args<'startStream'>),
    );
    if (!answer.ts) throw new SlackLocalError('chat.startStream answered without ts');
    const ref: MessageRef = { id: answer.ts, extra: { channel: answer.channel ?? channel, threadTs } };
    this.#started.set(request.idempotencyKey, ref);
    this.#locale.set(ref.id, locale);
    if (this.#started.size > 10_000) this.#started.delete(this.#started.keys().next().value as string);
    return ref;
  }

  async append(request: StreamAppendRequest): Promise<void> {
    const locale = this.#locale.get(request.stream.id) ?? 'en';
    const chunks = streamChunks(request.content, locale);
    const { channel, threadTs } = this.#where(request.stream);
    if (chunks.length === 0) {
      // A keep-alive with nothing new: refresh the thread status instead of touching the stream. Its
      // 429 is assistant.threads.setStatus's own: it pauses this call's key, not the channel's posts.
      const { setStatus } = SLACK_API_ROUTES;
      await ownLimit(setStatus.method, () => setStatus.call(this.#client, { channel_id: channel, thread_ts: threadTs, status: SLACK_TEXTS[locale].working }));
      return;
    }
    const { appendStream } = SLACK_API_ROUTES;
    await ownLimit(appendStream.method, () => appendStream.call(this.#client, { channel, ts: request.stream.id, chunks } as Args<'appendStream'>));
  }

  async stop(request: StreamStopRequest): Promise<void> {
    const locale = this.#locale.get(request.stream.id) ?? request.view.locale;
    const chunks = streamChunks(request.content, locale);
    const blocks = streamStopBlocks(this.#renderer, request.view, request.reason, locale);
    const { channel } = this.#where(request.stream);
    const { stopStream } = SLACK_API_ROUTES;
    await ownLimit(stopStream.method, () =>
      stopStream.call(this.#client, {
        channel,
        ts: request.stream.id,
        ...(chunks.length > 0 ? { chunks } : {}),
        ...(blocks.length > 0 ? { blocks } : {}),
      } as Args<'stopStream'>),
    );
    this.#locale.delete(request.stream.id);
  }

  #where(stream: MessageRef): { channel: string; threadTs: string } {
    const channel = typeof stream.extra?.channel === 'string' ? stream.extra.channel : this.#config.channel;
    const threadTs = typeof stream.extra?.threadTs === 'string' ? stream.extra.threadTs : stream.id;
    return { channel, threadTs };
  }

  /** The workspace id: the config's, else auth.test's (asked once; a failed ask is asked again next time). */
  #team(): Promise<string> {
    if (this.#config.streaming.teamId) return Promise.resolve(this.#config.streaming.teamId);
    this.#teamId ??= SLACK_API_ROUTES.authTest.call(this.#client, {}).then((answer) => {
      if (!answer.team_id) throw new SlackLocalError('auth.test answered without team_id');
      return answer.team_id;
    });
    const asked = this.#teamId;
    asked.catch(() => {
      if (this.#teamId === asked) this.#teamId = undefined;
    });
    return asked;
  }
}
