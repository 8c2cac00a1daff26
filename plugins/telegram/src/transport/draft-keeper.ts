import type { MessageRef } from '@progresscard/core/plugin';
import type { TelegramMessage } from '../render/payload.js';
import { classifyTelegramError } from './classify.js';

/** Timing of a {@link DraftKeeper}. All in ms. */
export interface DraftKeeperTiming {
  /** Re-send a draft nothing updated for this long (default 20000: 10 s of room before the 30 s lifetime). */
  readonly refreshMs: number;
  /** At least this long between two draft calls of one chat (default 1000: the chat's one call a second). */
  readonly spacingMs: number;
  /**
   * Stop keeping a draft the card has not updated for this long (default 30 minutes): a card whose
   * run was abandoned without an end must not keep a preview alive forever.
   */
  readonly giveUpAfterMs: number;
}

/**
 * The default {@link DraftKeeperTiming}. A draft is "a temporary 30-second preview"
 * (https://core.telegram.org/bots/api#sendmessagedraft): Telegram drops it 30 s after its last
 * `sendMessageDraft` unless it is persisted with `sendMessage`.
 */
const DRAFT_KEEPER_TIMING: DraftKeeperTiming = { refreshMs: 20_000, spacingMs: 1000, giveUpAfterMs: 30 * 60_000 };

interface KeptDraft {
  readonly ref: MessageRef;
  readonly chat: string;
  payload: TelegramMessage;
  /** Epoch ms the card last changed the draft. */
  changedAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** A refresh on its way; a call of the card waits for it (one call per draft at a time). */
  refreshing: Promise<void> | undefined;
}

/**
 * Keeps the live drafts of a transport on screen while their answer pauses: the core calls only
 * when a card changes, and an answer that stops growing for more than 30 s (a slow model, a tool
 * call between two answer parts) would vanish from the user's chat until the next change. A draft
 * nothing updated for `refreshMs` is re-sent as it is, at most one draft call a chat per
 * `spacingMs`; a refused refresh is tried again after the `retry_after` Telegram gives (429), any
 * other refusal leaves the draft to the card's next update. Timers are unref'd: they never keep a
 * process alive. Not documented by Telegram: whether refreshes count against the chat's one
 * message a second (UNCONFIRMED), hence the spacing.
 */
export class DraftKeeper {
  readonly #drafts = new Map<string, KeptDraft>();
  readonly #lastCallAt = new Map<string, number>();
  readonly #timing: DraftKeeperTiming;

  constructor(
    private readonly resend: (ref: MessageRef, payload: TelegramMessage) => Promise<void>,
    timing: Partial<DraftKeeperTiming> = {},
  ) {
    this.#timing = { ...DRAFT_KEEPER_TIMING, ...timing };
  }

  /** Call before the card's own call on a draft (an update or its persisting): waits for a refresh of it on its way. */
  async before(ref: MessageRef): Promise<void> {
    const kept = this.#drafts.get(ref.id);
    this.#lastCallAt.set(chatOf(ref), Date.now());
    await kept?.refreshing?.catch(() => undefined);
  }

  /** The card's draft call was accepted: keep `payload` on screen from now on. */
  shown(ref: MessageRef, payload: TelegramMessage): void {
    const kept = this.#drafts.get(ref.id) ?? { ref, chat: chatOf(ref), payload, changedAt: 0, timer: undefined, refreshing: undefined };
    kept.payload = payload;
    kept.changedAt = Date.now();
    this.#drafts.set(ref.id, kept);
    this.#arm(kept, this.#timing.refreshMs);
  }

  /** The draft was persisted, replaced or refused: stop keeping it. */
  stop(refId: string): void {
    const kept = this.#drafts.get(refId);
    if (kept?.timer) clearTimeout(kept.timer);
    this.#drafts.delete(refId);
  }

  /** Drafts kept now (for tests and diagnostics). */
  get size(): number {
    return this.#drafts.size;
  }

  #arm(kept: KeptDraft, ms: number): void {
    if (kept.timer) clearTimeout(kept.timer);
    kept.timer = setTimeout(() => this.#refresh(kept), Math.max(0, ms));
    kept.timer.unref?.();
  }

  #refresh(kept: KeptDraft): void {
    kept.timer = undefined;
    if (this.#drafts.get(kept.ref.id) !== kept) return;
    const now = Date.now();
    if (now - kept.changedAt >= this.#timing.giveUpAfterMs) {
      this.stop(kept.ref.id);
      return;
    }
    const wait = (this.#lastCallAt.get(kept.chat) ?? 0) + this.#timing.spacingMs - now;
    if (wait > 0) {
      this.#arm(kept, wait);
      return;
    }
    this.#lastCallAt.set(kept.chat, now);
    kept.refreshing = this.resend(kept.ref, kept.payload).then(
      () => {
        if (this.#drafts.get(kept.ref.id) === kept && !kept.timer) this.#arm(kept, this.#timing.refreshMs);
      },
      (error: unknown) => {
        const failure = classifyTelegramError(error);
        if (failure.kind === 'rate-limited' && this.#drafts.get(kept.ref.id) === kept && !kept.timer) this.#arm(kept, failure.retryAfterMs ?? this.#timing.spacingMs);
        else if (failure.kind !== 'rate-limited' && failure.kind !== 'transient') this.stop(kept.ref.id);
        else if (this.#drafts.get(kept.ref.id) === kept && !kept.timer) this.#arm(kept, TRANSIENT_RETRY_MS);
      },
    );
    kept.refreshing.finally(() => {
      kept.refreshing = undefined;
    });
  }
}

/** A refresh that got no answer (a 5xx, the network) is tried again after this long. */
const TRANSIENT_RETRY_MS = 5000;

const chatOf = (ref: MessageRef): string => String(ref.extra?.chatId);
