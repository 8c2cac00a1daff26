import { wellFormed } from './format/text.js';
import type { CardStatus } from './view.js';

/** Allowed status transitions; terminal statuses have none. */
const STATUS_TRANSITIONS: Readonly<Record<CardStatus, readonly CardStatus[]>> = {
  running: ['waiting', 'completed', 'failed', 'cancelled'],
  waiting: ['running', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

/**
 * The run's status as a state table ({@link STATUS_TRANSITIONS}), with what the run waits for
 * while it waits: running ⇄ waiting, then one terminal status for good.
 */
export class RunStatus {
  private status: CardStatus = 'running';
  private prompt: string | undefined;
  /** The tool call that asked the user; its `tool.finished` ends the wait. */
  private promptCallId: string | undefined;

  get current(): CardStatus {
    return this.status;
  }

  /** True once a terminal status was reached. */
  get isTerminal(): boolean {
    return STATUS_TRANSITIONS[this.status].length === 0;
  }

  /** What the user is asked, while the run waits for them. */
  get waitingFor(): string | undefined {
    return this.status === 'waiting' ? this.prompt : undefined;
  }

  /** The call that asked the user, while the run waits for them. */
  get waitingCallId(): string | undefined {
    return this.promptCallId;
  }

  /** The run asks the user `prompt` (from tool call `callId` when known) and waits. */
  wait(prompt: string, callId: string | undefined): void {
    this.prompt = wellFormed(prompt);
    this.promptCallId = callId;
    this.moveTo('waiting');
  }

  /** Activity after a prompt means the user answered: back to running. Returns true when it was waiting. */
  resume(): boolean {
    if (this.status !== 'waiting') return false;
    this.prompt = undefined;
    this.promptCallId = undefined;
    this.moveTo('running');
    return true;
  }

  /** @throws Error naming both statuses when the table has no such transition. */
  moveTo(next: CardStatus): void {
    if (next === this.status) return;
    if (!STATUS_TRANSITIONS[this.status].includes(next)) {
      throw new Error(`card status cannot move from ${this.status} to ${next}`);
    }
    this.status = next;
  }
}
