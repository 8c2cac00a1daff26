import picocolors from 'picocolors';

/**
 * Terminal colours: on when stdout is a terminal (or `FORCE_COLOR` is set), off with `NO_COLOR`.
 * Unlike picocolors' default, a `CI` variable alone does not turn colours on: CI logs and piped
 * output stay plain text.
 */
export const pc = picocolors.createColors(
  !('NO_COLOR' in process.env) && ('FORCE_COLOR' in process.env || process.stdout.isTTY === true),
);
