/**
 * Where a card's native stream stands (see `StreamingMode`):
 * - `idle`: no stream is open: before the card's first content, after a roll-over, or after the
 *   platform ended the stream (too old, idle too long); the next content opens a fresh stream;
 * - `streaming`: a stream is open and takes appends;
 * - `edit`: the stream could not be opened (the platform refused it), or the card asks the user
 *   something (a stream shows no buttons), so the card uses the channel's edit mode (`send` +
 *   `update`, on a fresh message after a stream) from now on;
 * - `finished`: the final closed the last stream;
 * - `stopped-by-user`: the user pressed the platform's own Stop; nothing more is sent.
 */
export type StreamPhase = 'idle' | 'streaming' | 'edit' | 'finished' | 'stopped-by-user';

/** Allowed moves of {@link StreamPhase}. */
export const STREAM_TRANSITIONS: Readonly<Record<StreamPhase, readonly StreamPhase[]>> = {
  idle: ['streaming', 'edit', 'stopped-by-user'],
  streaming: ['idle', 'edit', 'finished', 'stopped-by-user'],
  edit: [],
  finished: [],
  'stopped-by-user': [],
};

/**
 * What happens on a stream call's answer, by what was asked and how it ended — the lifecycle as a
 * table (`ok` = accepted; the failure kinds are the plugin's `classify`):
 * | call | ok | `stream-ended` | `stopped-by-user` | `rejected` | other |
 * |---|---|---|---|---|---|
 * | start | → streaming | back off | → stopped-by-user | first stream: → edit; later: back off | the failure table |
 * | append | stays | → idle, content again in a fresh stream | → stopped-by-user | the failure table | the failure table |
 * | stop (roll-over) | → idle | → idle | → stopped-by-user | → idle | the failure table |
 * | stop (final) | → finished | → idle, final in a fresh stream | → stopped-by-user | the failure table | the failure table |
 */
export type StreamCallOp = 'start' | 'append' | 'stop-roll-over' | 'stop-final';
