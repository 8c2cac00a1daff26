/**
 * Errors the CLI turns into an exit code and a one-line message (no stack trace): the user gave
 * something wrong, or the environment lacks something. Anything else is a bug and prints its stack.
 */

/** Exit codes of the `progresscard` command. */
export const EXIT = {
  /** The run(s) ended in the trace's terminal state on every channel. */
  ok: 0,
  /** The replay ran but a card did not end in the expected state (or a runtime error). */
  failed: 1,
  /** Bad arguments or missing configuration; nothing was sent. */
  usage: 2,
  /** Stopped by Ctrl-C. */
  interrupted: 130,
} as const;

/** A problem the user can fix: bad option values, missing environment variables, unknown trace names. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
  constructor(
    message: string,
    /** Process exit code (default {@link EXIT.usage}). */
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}
