import type { CardView } from '../card/view.js';
import type { CallFailure, CardRenderer, CardTransport, MessageRef } from '../plugin/contract.js';
import type { Logger } from '../shared/logger.js';

const NOTICE = {
  'zh-CN': '（这张卡片无法再更新，结果已发送为下方的新卡片。）',
  en: '(This card could not be updated any more; the result was sent as a new card below.)',
} as const;

/**
 * The view shown on a message that was given up for a fresh one: the final status and a note
 * pointing to the new card, without the answer (so the chat does not hold the answer twice).
 */
function movedNoticeView(finalView: CardView): CardView {
  return { ...finalView, answer: NOTICE[finalView.locale], thinking: '', tools: [], hasRunningTools: false };
}

/**
 * Best effort, once: after the final went out as a fresh message, the message that kept refusing
 * it is updated to {@link movedNoticeView}, so it does not stay on "running". Failures are logged
 * at debug level and never retried; the run's final delivery is not affected.
 */
export async function closeMovedMessage(options: {
  readonly message: MessageRef;
  readonly finalView: CardView;
  readonly renderer: CardRenderer<unknown>;
  readonly transport: CardTransport<unknown>;
  /** Takes one call from the channel's budget. */
  readonly acquire: () => Promise<void>;
  readonly logger: Logger;
  /** Told once the update call settled (not when rendering or the budget failed before it). */
  readonly report?: (failure?: CallFailure) => void;
}): Promise<void> {
  let payload: unknown;
  try {
    payload = options.renderer.render(movedNoticeView(options.finalView));
    await options.acquire();
  } catch (error) {
    options.logger.debug('could not mark the given-up message as moved', { message: options.message.id, error: String(error) });
    return;
  }
  try {
    await options.transport.update({ message: options.message, payload, final: true });
    options.report?.();
  } catch (error) {
    options.logger.debug('could not mark the given-up message as moved', { message: options.message.id, error: String(error) });
    options.report?.(classifyOrTransient(options.transport, error));
  }
}

/** The transport's classification of `error`; a transient failure when `classify` itself throws. */
function classifyOrTransient(transport: CardTransport<unknown>, error: unknown): CallFailure {
  try {
    return transport.classify(error);
  } catch {
    return { kind: 'transient', detail: String(error) };
  }
}
