/** One accepted call of a message, in the order the platform applied it: when (epoch ms), and whether it showed the final. */
export interface AppliedCall {
  readonly at: number;
  readonly final: boolean;
}

/** How a late-applied edit played out on one message (see {@link lateEditOverFinal}). */
export interface LateEditOutcome {
  /** Index of the first applied call that showed the final; -1 when none did. */
  readonly firstFinal: number;
  /** Index of the first older state applied after that final (the late edit); -1 when none was. */
  readonly late: number;
  /** When the late edit was applied (epoch ms), if there was one. */
  readonly lateAt: number | undefined;
  /** True when the last applied call showed the final: the message ends showing it. */
  readonly endsWithFinal: boolean;
}

/**
 * Reads the calls a platform applied to one message (in the order applied) for the fault of an
 * edit that timed out on the client and was applied later, over the final (fault case F17): was
 * an older state applied after the final, and was the final applied again after it. A message
 * edit that carries no version (Telegram's editMessageText, Discord's PATCH) shows whatever was
 * applied last.
 */
export function lateEditOverFinal(applied: readonly AppliedCall[]): LateEditOutcome {
  const firstFinal = applied.findIndex((call) => call.final);
  const late = firstFinal < 0 ? -1 : applied.findIndex((call, i) => i > firstFinal && !call.final);
  return { firstFinal, late, lateAt: late < 0 ? undefined : applied[late]!.at, endsWithFinal: applied.at(-1)?.final === true };
}
