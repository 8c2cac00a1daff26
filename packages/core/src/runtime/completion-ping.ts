import { formatDuration } from '../card/format/duration.js';
import type { CardView, Locale } from '../card/view.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { BudgetedCall, ChannelPlugin, MessageRef, Requester } from '../plugin/contract.js';
import { DEFAULT_COMPLETION_PING } from '../plugin/kit/switches.js';
import { statusLabel } from '../plugin/kit/status.js';
import { oneLine } from '../card/format/text.js';
import type { CompletionPingSwitch } from '../plugin/contract.js';
import type { Logger } from '../shared/logger.js';
import { classifyCallError } from '../delivery/calls/call-timeout.js';

/** Why a finished card got no completion ping (or `sent`). */
export type CompletionPingOutcome =
  | 'sent'
  | 'off'
  | 'no-reply-method'
  | 'final-not-delivered'
  | 'too-short'
  | 'in-view'
  | 'cancelled'
  | 'already-sent'
  | 'failed'
  /** An earlier ping was refused for a missing permission scope: no more pings on this channel. */
  | 'missing-scope';

const ICONS = { completed: '✅', failed: '❌', cancelled: '⏹', running: '', waiting: '' } as const;

/**
 * The ping's text: status and run time in the card's language, e.g. `✅ 已完成 · 用时 12 分 3 秒：构建修复`
 * or `✅ Completed in 12m 3s: Fix the build`. The mention is the transport's (platforms differ).
 */
export function completionPingText(view: CardView, locale: Locale = view.locale): string {
  const duration = formatDuration(view.elapsedMs, locale);
  const status = `${ICONS[view.status]} ${statusLabel(view.status, locale)}`.trim();
  const title = oneLine(view.title, 40);
  return locale === 'zh-CN' ? `${status} · 用时 ${duration}：${title}` : `${status} in ${duration}: ${title}`;
}

/** What a composition gives the pinger. */
export interface CompletionPingDeps {
  readonly plugin: ChannelPlugin;
  readonly settings: CompletionPingSwitch | undefined;
  /** Waits for a budget slot for one call (the channel's budget keys for it). */
  readonly acquire: (call: BudgetedCall) => Promise<void>;
  readonly logger: Logger;
  /** Waits `ms` before the one retry (timers, so fake time drives it in tests). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Makes one platform call through the channel's call chain (bounded by its `callTimeoutMs`); rejects with the call's error. */
  readonly platformCall: <T>(call: () => Promise<T>, kind: 'reply' | 'read') => Promise<T>;
}

/** The card as the pinger sees it once its final settled. */
export interface PingedCard {
  readonly id: string;
  readonly target: unknown;
  readonly view: CardView;
  readonly requester?: Requester;
  /** The card's own setting (`open({ completionPing })`, per chat): wins over the channel's; `false` turns it off. */
  readonly settings?: Partial<CompletionPingSwitch> | false;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Sends at most one completion ping per card: when the switch is on (the card's own setting wins
 * over the channel's), the transport has `reply`, the final reached the chat, it was not cancelled
 * (unless `onCancelled`), and either the run lasted at least `afterMs` or at least `pushedUpBy`
 * messages came after the card in the chat (asked of the transport's `messagesAfter`). One platform call drawn from the channel's budget like any other; a rate-limited
 * answer (the call was refused, nothing posted) gets one retry with the same idempotency key. Other
 * failures are not retried: a timed-out call may have posted, and a ping must never show twice.
 * Never throws: a failure is one warning.
 */
export class CompletionPinger {
  private readonly pinged = new Set<string>();
  /** Set once a ping was refused for a missing permission scope (warned once). */
  private scopeRefused = false;

  constructor(private readonly deps: CompletionPingDeps) {}

  /** Decides and, when due, sends. */
  async afterFinal(card: PingedCard, final: FinalDelivery): Promise<CompletionPingOutcome> {
    const { plugin } = this.deps;
    if (card.settings === false || (!this.deps.settings && !card.settings)) return 'off';
    const settings: CompletionPingSwitch = { ...DEFAULT_COMPLETION_PING, ...this.deps.settings, ...card.settings };
    const reply = plugin.transport.reply;
    if (!reply) return 'no-reply-method';
    if (!final.ok || !final.message || final.skipped) return 'final-not-delivered';
    if (final.status === 'cancelled' && !settings.onCancelled) return 'cancelled';
    if (this.pinged.has(card.id)) return 'already-sent';
    let pushedUp = false;
    if (card.view.elapsedMs < settings.afterMs) {
      if (settings.pushedUpBy === undefined) return 'too-short';
      const after = await this.messagesAfter(card, final.message, settings.pushedUpBy);
      if (after === undefined) return 'too-short';
      if (after < settings.pushedUpBy) return 'in-view';
      pushedUp = true;
    }
    if (this.pinged.has(card.id)) return 'already-sent';
    if (this.scopeRefused) return 'missing-scope';
    this.pinged.add(card.id);
    const request = {
      message: final.message,
      target: card.target,
      text: completionPingText(card.view),
      mention: card.requester,
      idempotencyKey: `${card.id}-ping`,
      ...(pushedUp ? { broadcast: true } : {}),
    };
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        await this.deps.acquire({ kind: 'send', target: card.target, replyTo: final.message });
        await this.deps.platformCall(() => reply.call(plugin.transport, request), 'reply');
        return 'sent';
      } catch (error) {
        const failure = classifyCallError(plugin.transport, error);
        const retry = attempt === 1 && failure.kind === 'rate-limited';
        if (failure.kind === 'missing-scope') {
          this.scopeRefused = true;
          this.deps.logger.warn(`${plugin.id}: the app lacks ${failure.scope ? `permission scope ${failure.scope}` : 'a permission scope'} for replies: no more completion pings on this channel (${failure.detail})`);
          return 'missing-scope';
        }
        if (!retry) {
          this.deps.logger.warn(`${plugin.id} card ${card.id}: completion ping failed (${failure.kind}: ${failure.detail})`);
          return 'failed';
        }
        await (this.deps.sleep ?? defaultSleep)(failure.kind === 'rate-limited' ? (failure.retryAfterMs ?? 1000) : 1000);
      }
    }
    return 'failed';
  }

  /**
   * Messages after the card in its chat, up to `atMost`; undefined when the channel cannot tell or
   * the call failed (one debug line: the ping then goes by run time only). The read is drawn from
   * the card message's update budget (a read of the chat, counted like an edit of the card).
   */
  private async messagesAfter(card: PingedCard, message: MessageRef, atMost: number): Promise<number | undefined> {
    const { plugin } = this.deps;
    const count = plugin.transport.messagesAfter;
    if (!count) return undefined;
    try {
      await this.deps.acquire({ kind: 'update', target: card.target, message });
      const after = await this.deps.platformCall(() => count.call(plugin.transport, { message, target: card.target, atMost }), 'read');
      return Number.isFinite(after) ? after : undefined;
    } catch (error) {
      const failure = classifyCallError(plugin.transport, error);
      this.deps.logger.debug(`${plugin.id} card ${card.id}: could not count the messages after the card (${failure.kind}: ${failure.detail})`);
      return undefined;
    }
  }
}
