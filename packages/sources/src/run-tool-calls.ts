/** An open tool call: its name and when it started (epoch ms, if known). */
export interface OpenToolCall {
  readonly id: string;
  readonly name: string;
  readonly startedAt: number | undefined;
}

/**
 * The tool calls of one run, for `RunBuilder`: the open ones in start order and the ids that
 * finished, so a second start or finish of an id is recognised and ignored.
 */
export class RunToolCalls {
  private readonly open = new Map<string, OpenToolCall>();
  private readonly finished = new Set<string>();

  /** How many calls are open. */
  get openCount(): number {
    return this.open.size;
  }

  /** True when call `id` started or finished in this run. */
  seen(id: string): boolean {
    return this.open.has(id) || this.finished.has(id);
  }

  /** True when call `id` finished in this run. */
  hasFinished(id: string): boolean {
    return this.finished.has(id);
  }

  /** Open call `id`, if any. */
  get(id: string): OpenToolCall | undefined {
    return this.open.get(id);
  }

  start(id: string, name: string, startedAt: number | undefined): void {
    this.open.set(id, { id, name, startedAt });
  }

  /** Marks call `id` finished; returns it when it was open. */
  finish(id: string): OpenToolCall | undefined {
    const call = this.open.get(id);
    this.open.delete(id);
    this.finished.add(id);
    return call;
  }

  /** The open calls, in start order. */
  openCalls(): OpenToolCall[] {
    return [...this.open.values()];
  }

  /** The most recently started open call whose name is in `names`. */
  lastOpen(names: readonly string[]): OpenToolCall | undefined {
    let found: OpenToolCall | undefined;
    for (const call of this.open.values()) if (names.includes(call.name)) found = call;
    return found;
  }

  /** Forgets the open calls without finishing them (the card shows them as they were). */
  abandonOpen(): void {
    this.open.clear();
  }

  /** Forgets every call (a new run). */
  clear(): void {
    this.open.clear();
    this.finished.clear();
  }
}
