/** WeCom answered a call with a non-zero `errcode` (https://developer.work.weixin.qq.com/document/path/90313). */
export class WeComApiError extends Error {
  override readonly name = 'WeComApiError';
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    readonly status: number,
  ) {
    super(`WeCom answered errcode ${errcode}: ${errmsg} (HTTP ${status})`);
  }
}

/** The stream can no longer show a change: its 6-minute window closed or WeCom stopped polling it. */
export class WeComStreamGoneError extends Error {
  override readonly name = 'WeComStreamGoneError';
}

/** Nothing to answer on: no user message waits for an answer, or its single-use `response_url` is spent or expired. */
export class WeComTargetError extends Error {
  override readonly name = 'WeComTargetError';
}
