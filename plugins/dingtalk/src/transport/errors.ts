/**
 * Errors the DingTalk transport throws. None of them holds the access token, the app secret, the
 * request headers or the payload: they are safe to log.
 */

/** Which platform call failed. */
export type DingTalkOperation = 'token' | 'createAndDeliver' | 'deliver' | 'update' | 'stream' | 'robotMessage' | 'registerCallback' | 'oapiToken' | 'mediaUpload';

/**
 * DingTalk answered with an error: a non-2xx status with `{requestid, code, message}`
 * (https://open.dingtalk.com/document/development/server-api-error-codes-1), or a 2xx whose body
 * says `success: false`.
 */
export class DingTalkApiError extends Error {
  override readonly name = 'DingTalkApiError';
  constructor(
    readonly operation: DingTalkOperation,
    /** HTTP status. */
    readonly status: number,
    /** Platform code, e.g. `Forbidden.AccessDenied.QpsLimitForAppkeyAndApi`; undefined when the body had none. */
    readonly code: string | undefined,
    /** Platform message. */
    readonly platformMessage: string | undefined,
    /** `requestid` of the answer, for DingTalk support. */
    readonly requestId?: string,
    /** The scopes a 403 `AccessTokenPermissionDenied` names (`accessdenieddetail.requiredScopes`), e.g. `['Card.Streaming.Write']`. */
    readonly requiredScopes?: readonly string[],
  ) {
    super(`dingtalk ${operation}: HTTP ${status} ${code ?? '(no code)'}${platformMessage && platformMessage !== code ? `: ${platformMessage}` : ''}${requestId ? ` [requestid ${requestId}]` : ''}`);
  }
}

/** One space a card did not reach. */
export interface FailedDelivery {
  readonly spaceType?: string;
  readonly spaceId?: string;
  readonly errorMsg?: string;
}

/**
 * `createAndDeliver` / `deliver` answered 200 but `deliverResults[].success` is false for a space (or
 * there were no results): the card exists but is not in the chat. A retried send delivers it again.
 */
export class DingTalkDeliveryError extends Error {
  override readonly name = 'DingTalkDeliveryError';
  constructor(
    readonly outTrackId: string,
    readonly failed: readonly FailedDelivery[],
  ) {
    super(
      `dingtalk card ${outTrackId} was created but not delivered: ${
        failed.length === 0 ? 'no deliverResults' : failed.map((f) => `${f.spaceType ?? '?'} ${f.errorMsg ?? 'failed'}`).join(', ')
      }`,
    );
  }
}

/**
 * The card was created with the streaming template, but its content cannot be streamed (the app
 * lacks `Card.Streaming.Write`): it is given up (classified `gone`) so that the core sends a fresh
 * card, created with the card-data template.
 */
export class DingTalkStreamingRefusedError extends Error {
  override readonly name = 'DingTalkStreamingRefusedError';
  constructor(readonly outTrackId: string) {
    super(`dingtalk card ${outTrackId}: its template only shows streamed content and the app lacks Card.Streaming.Write; a fresh card with the card-data template replaces it`);
  }
}

/** The request never got an HTTP answer: connection refused or reset, DNS, or the timeout. */
export class DingTalkNetworkError extends Error {
  override readonly name = 'DingTalkNetworkError';
  constructor(
    readonly operation: DingTalkOperation,
    /** Node / axios error code, e.g. `ECONNREFUSED`, `ECONNABORTED`. */
    readonly errorCode: string | undefined,
    readonly timedOut: boolean,
  ) {
    super(`dingtalk ${operation}: ${timedOut ? 'timed out' : `network error ${errorCode ?? ''}`.trim()}`);
  }
}

/** No usable target: neither the card nor the config named a valid one. Names the value. */
export class DingTalkTargetError extends Error {
  override readonly name = 'DingTalkTargetError';
}
