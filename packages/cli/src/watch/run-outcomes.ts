import type { FinalDelivery, ProgressCard } from '@progresscard/core';

/**
 * What became of the runs `watch` mirrored: a line per ended run once its final reached (or did
 * not reach) each channel, and at the end of `watch` a summary and whether any final failed
 * (the exit code says so).
 */

/** A run whose card is still open when `watch` stops (it continues on the next `watch`). */
export interface OpenRun {
  readonly file: string;
  readonly run: number;
  readonly cards: ReadonlyMap<string, ProgressCard>;
}

/** Where a card's message is, in words: `feishu message om_1`, or `feishu (no message yet)`. */
function whereOn(channel: string, message: { readonly id: string } | undefined): string {
  return message ? `${channel} message ${message.id}` : `${channel} (no message yet)`;
}

/** Counts and reports the ended runs of one `watch`. */
export class RunOutcomes {
  private readonly pending = new Set<Promise<void>>();
  private ended = 0;
  private readonly failures: string[] = [];

  constructor(
    /** A line for the user: a run ended and where its card went. */
    private readonly report: (line: string) => void,
    /** A line for the user about a final that did not reach its chat. */
    private readonly warn: (line: string) => void,
  ) {}

  /**
   * Run `run` of `file` ended (its terminal event was pushed, or watch ended it): reports it once
   * every card's final delivery settled, e.g. `run 2 of /s.jsonl completed: card on feishu message om_1`.
   */
  track(file: string, run: number, cards: ReadonlyMap<string, ProgressCard>): void {
    const finals = [...cards].map(([channel, card]) => card.finalDelivery.then((final) => ({ channel, final })));
    const done = Promise.all(finals).then((outcomes) => this.settled(file, run, outcomes));
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  private settled(file: string, run: number, outcomes: ReadonlyArray<{ channel: string; final: FinalDelivery }>): void {
    this.ended += 1;
    const status = outcomes[0]?.final.status ?? 'ended';
    const delivered = outcomes.filter(({ final }) => final.ok).map(({ channel, final }) => whereOn(channel, final.message));
    this.report(`run ${run} of ${file} ${status}${delivered.length > 0 ? `: card on ${delivered.join(', ')}` : ''}`);
    for (const { channel, final } of outcomes.filter(({ final }) => !final.ok)) {
      const failure = `run ${run} of ${file}: its final card did not reach ${whereOn(channel, final.message)}: ${final.error ?? 'unknown error'}`;
      this.failures.push(failure);
      this.warn(failure);
    }
  }

  /** Resolves once every tracked run reported (give it a time limit: a final may still be retrying). */
  async settledAll(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** True when a tracked final did not reach its chat. */
  get failed(): boolean {
    return this.failures.length > 0;
  }

  /**
   * The closing lines of `watch`: why it stopped, how many runs ended and how many finals failed,
   * and each open run with where its card continues.
   */
  summary(reason: string, open: readonly OpenRun[]): string[] {
    const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
    const lines = [`progresscard watch stopped (${reason}): ${runs(this.ended)} ended${this.failures.length > 0 ? `, ${this.failures.length} final card${this.failures.length === 1 ? '' : 's'} not delivered (above)` : ''}; ${runs(open.length)} still open.`];
    for (const { file, run, cards } of open) {
      lines.push(`  run ${run} of ${file} stays open; the next watch continues it on ${[...cards].map(([channel, card]) => whereOn(channel, card.message)).join(', ')}`);
    }
    return lines;
  }
}
