/**
 * How the content stream ends with a state (https://open.dingtalk.com/document/development/api-streamingupdate):
 * `open` while the run goes on, `finalize` (`isFinalize: true`, state finished) at the end,
 * `error` (`isError: true`, state failed) for a failed run when the template's failed state is used.
 */
export type StreamEnd = 'open' | 'finalize' | 'error';

/**
 * What the DingTalk renderer produces: the card's `cardData.cardParamMap` (every value a string,
 * https://open.dingtalk.com/document/development/instructions-for-filling-in-api-card-data), the
 * content variable included, and how the content stream ends with this state.
 */
export interface DingTalkCardPayload {
  readonly cardParamMap: Readonly<Record<string, string>>;
  readonly streamEnd: StreamEnd;
}

/**
 * Which AI-card state a failed run ends in:
 * - `finished` (default): `flowStatus` 3 / `isFinalize`, with the ❌ status line and the error in the
 *   content. Templates enable processing, inputting and finished by default, not failed
 *   (https://open.dingtalk.com/document/development/ai-card-template), so this always shows.
 * - `failed`: `flowStatus` 5 / `isError`; needs the failed state enabled in the template, which
 *   otherwise shows the platform's own fallback text instead of the content.
 */
export type FailedCardState = 'finished' | 'failed';
