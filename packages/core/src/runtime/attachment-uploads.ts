import type { CardAttachment } from '../card/attachments.js';
import type { CardState } from '../card/card-state.js';
import { classifyCallError } from '../delivery/calls/call-timeout.js';
import type { ChannelDispatcher } from '../delivery/channel-dispatcher.js';
import type { MessageRef } from '../plugin/contract.js';
import type { Logger } from '../shared/logger.js';

/** What the uploads of one card need. */
export interface AttachmentUploadDeps {
  readonly channel: ChannelDispatcher;
  readonly logger: Logger;
  readonly cardId: string;
  readonly target: unknown;
  /** The card's main message once sent. */
  readonly message: () => MessageRef | undefined;
  /** Called when an upload's outcome changed the card (re-render it). */
  readonly changed: () => void;
}

/** Tries of one upload the platform answered with a rate limit (each after the wait it asked for). */
const MAX_RATE_LIMITED_UPLOAD_ATTEMPTS = 3;

/**
 * Uploads the files a card's run attached, one platform call each through the transport's
 * `attachFile`, drawn from the channel's budget as a `send` (a file message is a message). Each
 * outcome goes into the card state: uploaded, or not uploaded with the reason (a channel without
 * uploads, the transport's refusal, a timeout). Never throws; {@link settled} resolves once every
 * upload started so far has an outcome, so the final card can wait for them.
 */
export class AttachmentUploads {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: AttachmentUploadDeps) {}

  /** Starts the upload of each pending file of `state` not started yet. */
  start(state: CardState, started: Set<string>): void {
    for (const file of state.pendingAttachments) {
      if (started.has(file.id)) continue;
      started.add(file.id);
      const upload = this.upload(state, file).finally(() => this.inFlight.delete(upload));
      this.inFlight.add(upload);
    }
  }

  /** Resolves when every upload started so far has its outcome. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  private async upload(state: CardState, file: CardAttachment): Promise<void> {
    const { channel, logger, cardId, target } = this.deps;
    const transport = channel.plugin.transport;
    const attach = transport.attachFile;
    let outcome: { readonly url?: string } | { readonly reason: string };
    if (!attach) {
      outcome = { reason: `${channel.plugin.id} cannot upload files` };
    } else {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await channel.acquire({ kind: 'send', target, ...(this.deps.message() ? { replyTo: this.deps.message() } : {}) });
          const request = { message: this.deps.message(), target, path: file.path, name: file.name, idempotencyKey: `${cardId}-${file.id}` };
          const attached = await channel.platformCall(() => attach.call(transport, request), 'upload');
          outcome = attached.url ? { url: attached.url } : {};
          break;
        } catch (error) {
          const failure = classifyCallError(transport, error);
          // A rate-limited upload was not applied: it is tried again after the wait the platform asked
          // for (Telegram's 429 retry_after: a file sent next to the card's own edits in a private chat).
          // Other failures may have been applied (a timeout) or will not change: they are not repeated.
          if (failure.kind === 'rate-limited' && attempt < MAX_RATE_LIMITED_UPLOAD_ATTEMPTS) {
            await new Promise((resolve) => setTimeout(resolve, failure.retryAfterMs ?? 1000 * attempt));
            continue;
          }
          logger.warn(`${channel.plugin.id} card ${cardId}: file ${file.name} not uploaded (${failure.kind}: ${failure.detail})`);
          outcome = { reason: shortReason(error, failure.detail) };
          break;
        }
      }
    }
    if (state.settleAttachment(file.id, outcome)) this.deps.changed();
  }
}

/** The reason the card shows: the error's own message when short, else the failure's detail. */
function shortReason(error: unknown, detail: string): string {
  const message = error instanceof Error ? error.message : detail;
  return (message || detail).slice(0, 120);
}
