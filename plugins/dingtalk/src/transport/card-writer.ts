import { randomUUID } from 'node:crypto';
import type { TransportNotice } from '@progresscard/core/plugin';
import type { DingTalkCardPayload } from '../render/payload.js';
import { MISSING_SCOPE_CODE } from './classify.js';
import { DingTalkApiError, DingTalkStreamingRefusedError } from './errors.js';
import type { DingTalkHttp } from './http.js';
import { DINGTALK_API_ROUTES } from './routes.js';
import type { AccessTokenCache } from './token.js';

/**
 * How the card's markdown content reaches DingTalk:
 * - `streaming` (default): through the AI-card streaming API (`PUT /v1.0/card/streaming`, key = the
 *   content variable, a new `guid` per call, `isFull: true`, `isFinalize` with the final state,
 *   `isError` for a failed run in the failed state), as DingTalk's own SDK and every peer do; the
 *   other variables go through instance updates. The template's Markdown component must have its
 *   streaming switch on (https://open.dingtalk.com/document/development/typewriter-effect-streaming-ai-card).
 * - `card-data`: everything through instance updates (`PUT /v1.0/card/instances`), for templates
 *   whose Markdown component has no streaming switch: with the switch on, content written as card
 *   data may never show (https://open.dingtalk.com/document/development/ai-card-template).
 */
export type ContentMode = 'streaming' | 'card-data';

/** One HTTP step of a card write. */
type WriteStep = 'variables' | 'content';

/**
 * Order of the steps: while running, the variables (title, `flowStatus` 2) before the content, as
 * the SDK does; for the final, the content stream is closed first (`isFinalize`), then the
 * variables (`flowStatus` 3), the peers' finish pattern.
 */
const STEP_ORDER: Readonly<Record<'open' | 'end', readonly WriteStep[]>> = {
  open: ['variables', 'content'],
  end: ['content', 'variables'],
};

/** What DingTalk holds for a card, as far as this process knows (render signatures). */
interface Held {
  variables?: string;
  content?: string;
  /** Created with the streaming template (before the streaming API was found refused). */
  streamingTemplate?: boolean;
}

/**
 * Brings a delivered card to a payload with at most two calls, one request at a time. Each step is
 * skipped when DingTalk already holds its part, so a retry after one step failed repeats only the
 * step that failed (the error's `operation` names it: `update` or `stream`).
 */
export class CardWriter {
  private readonly held = new Map<string, Held>();
  private currentMode: ContentMode;
  private readonly noticeListeners: Array<(notice: TransportNotice) => void> = [];

  constructor(
    private readonly http: DingTalkHttp,
    private readonly tokens: AccessTokenCache,
    mode: ContentMode,
    /** The template's content (streaming markdown) variable. */
    private readonly contentKey: string,
    /**
     * A template whose Markdown component has no streaming switch, for cards created after the
     * streaming API was refused for a missing `Card.Streaming.Write` (see {@link templateFor}).
     */
    private readonly cardDataTemplateId?: string,
  ) {
    this.currentMode = mode;
  }

  /** The content mode in use: `card-data` from the moment the streaming API lacked its scope. */
  get mode(): ContentMode {
    return this.currentMode;
  }

  /** The template a new card is created with: the card-data template once streaming was refused (when one is configured). */
  templateFor(streamingTemplateId: string): string {
    return this.currentMode === 'card-data' && this.streamingRefused && this.cardDataTemplateId ? this.cardDataTemplateId : streamingTemplateId;
  }

  /** Registers the core's listener for the streaming downgrade notice. */
  onNotice(listener: (notice: TransportNotice) => void): void {
    this.noticeListeners.push(listener);
  }

  private streamingRefused = false;

  /** The card was created with `payload` as its data: the variables are there; in streaming mode the content still has to be streamed. */
  created(outTrackId: string, payload: DingTalkCardPayload, cardTemplateId?: string): void {
    const { variables } = this.split(payload);
    this.held.set(outTrackId, {
      variables: JSON.stringify(variables),
      content: this.currentMode === 'card-data' ? this.contentSignature(payload) : undefined,
      streamingTemplate: cardTemplateId === undefined ? !this.streamingRefused : cardTemplateId !== this.cardDataTemplateId,
    });
  }

  /**
   * Writes what the card does not hold yet. After a final state is on the card it is forgotten.
   * @throws DingTalkApiError / DingTalkNetworkError of the step that failed (`operation` `update` or `stream`).
   */
  async write(outTrackId: string, payload: DingTalkCardPayload): Promise<void> {
    const held = this.held.get(outTrackId) ?? {};
    this.held.set(outTrackId, held);
    // Created with the streaming template while another card met the refusal: replaced as well.
    if (held.streamingTemplate && this.streamingRefused && this.cardDataTemplateId) return this.afterStreamingRefused(outTrackId, payload);
    const { variables, content } = this.split(payload);
    for (const step of STEP_ORDER[payload.streamEnd === 'open' ? 'open' : 'end']) {
      if (step === 'variables') {
        const signature = JSON.stringify(variables);
        if (held.variables === signature) continue;
        await this.put(outTrackId, variables);
        held.variables = signature;
      } else if (content !== undefined) {
        const signature = this.contentSignature(payload);
        if (held.content === signature) continue;
        try {
          await this.stream(outTrackId, content, payload.streamEnd);
        } catch (error) {
          if (!(error instanceof DingTalkApiError) || error.code !== MISSING_SCOPE_CODE) throw error;
          this.downgrade(error.requiredScopes?.join(', ') ?? 'Card.Streaming.Write');
          return this.afterStreamingRefused(outTrackId, payload);
        }
        held.content = signature;
      }
    }
    if (payload.streamEnd !== 'open') this.held.delete(outTrackId);
  }

  /**
   * The app lacks `Card.Streaming.Write` (403 `AccessTokenPermissionDenied` on `PUT /v1.0/card/streaming`,
   * https://open.dingtalk.com/document/orgapp-server/add-api-permission): content goes as card data
   * for the rest of the process, said once.
   */
  private downgrade(scope: string): void {
    if (this.streamingRefused) return;
    this.streamingRefused = true;
    this.currentMode = 'card-data';
    const template = this.cardDataTemplateId ? `new cards use the card-data template ${this.cardDataTemplateId}` : 'set cardDataTemplateId to a template whose Markdown component has no streaming switch, else the content may stay blank';
    const notice: TransportNotice = {
      kind: 'downgraded',
      scope,
      message: `the streaming API was refused: the app lacks permission scope ${scope}; card content is written as card data (contentMode 'card-data') for the rest of the process (${template}). Grant the scope and restart for typewriter answers.`,
    };
    for (const listener of this.noticeListeners) listener(notice);
  }

  /**
   * The card whose stream was refused: with a card-data template configured it is replaced (the
   * core sends a fresh card, created with that template); without one its content is written as
   * card data here, which shows if the template's component has no streaming switch.
   */
  private async afterStreamingRefused(outTrackId: string, payload: DingTalkCardPayload): Promise<void> {
    if (this.cardDataTemplateId) {
      this.held.delete(outTrackId);
      throw new DingTalkStreamingRefusedError(outTrackId);
    }
    await this.write(outTrackId, payload);
  }

  /** Forgets a card (e.g. gone). */
  forget(outTrackId: string): void {
    this.held.delete(outTrackId);
  }

  /** The instance-update variables, and the streamed content (undefined in card-data mode). */
  private split(payload: DingTalkCardPayload): { variables: Record<string, string>; content?: string } {
    if (this.currentMode === 'card-data') return { variables: { ...payload.cardParamMap } };
    const { [this.contentKey]: content, ...variables } = payload.cardParamMap;
    return { variables, content: content ?? '' };
  }

  private contentSignature(payload: DingTalkCardPayload): string {
    return JSON.stringify([payload.cardParamMap[this.contentKey] ?? '', payload.streamEnd]);
  }

  private async put(outTrackId: string, cardParamMap: Record<string, string>): Promise<void> {
    const token = await this.tokens.get();
    await this.http.call(DINGTALK_API_ROUTES.updateCard, { outTrackId, cardData: { cardParamMap }, cardUpdateOptions: { updateCardDataByKey: true } }, token);
  }

  /**
   * One streaming call with the whole content (`isFull: true`), never a slice of it. The streaming
   * doc (https://open.dingtalk.com/document/development/api-streamingupdate) gives `content` as
   * "≤ 1K per call, preferably ≤ 3K in total", but a variable bound to a markdown component must be
   * written with `isFull: true` (an append is refused), so a call carries the full text. Whether the
   * 1K per call is enforced is UNCONFIRMED: the open-source AI-card bridges (DingTalk-Real-AI
   * dingtalk-openclaw-connector `card.ts`, soimy/openclaw-channel-dingtalk `card-service.ts`) send the
   * whole accumulated text of several KB per call without an error. What bounds a call here is the
   * renderer's `maxContentChars` (under the 3K total; longer answers continue in follow-up messages).
   */
  private async stream(outTrackId: string, content: string, end: DingTalkCardPayload['streamEnd']): Promise<void> {
    const token = await this.tokens.get();
    await this.http.call(
      DINGTALK_API_ROUTES.streamCard,
      { outTrackId, guid: randomUUID(), key: this.contentKey, content, isFull: true, isFinalize: end === 'finalize', isError: end === 'error' },
      token,
    );
  }
}
