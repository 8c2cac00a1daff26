import { boundedJson, readableArgs } from '../shared/bounded-json.js';
import { wellFormed } from './format/text.js';
import type { Redact } from './redaction.js';
import { toToolLine, toolDetail, type ToolCallRecord } from './tool-lines.js';
import type { Locale, ToolLine } from './view.js';

/**
 * Argument text kept per call for its detail line, in characters. Streamed arguments (a file write
 * carries the whole file) are re-read on every delta, so only their start is kept: the detail keys
 * (`command`, `path`…) come first in practice.
 */
const MAX_ARG_CHARS = 16_384;

/**
 * The run's tool calls in the order they started: each one's arguments, state and times, from
 * `tool.started` / `tool.args_delta` / `tool.finished` and the run's round and end. Every change
 * method returns true when a card line changed.
 */
export class ToolCalls {
  private readonly calls = new Map<string, ToolCallRecord>();
  private runningCount = 0;
  /** The call started last (the one a `interaction.requested` without `callId` belongs to). */
  private lastStartedCallId: string | undefined;

  /** `redact` replaces secrets in details and summaries before they are kept. */
  constructor(private readonly redact: Redact) {}

  /** True while at least one call is running. */
  get hasRunning(): boolean {
    return this.runningCount > 0;
  }

  /** True while no call (not even a result whose start never came) is on the card. */
  get isEmpty(): boolean {
    return this.calls.size === 0;
  }

  /** Id of the call started last. */
  get lastStarted(): string | undefined {
    return this.lastStartedCallId;
  }

  /** `tool.started`: a new running call, or a repeated start updating its name and arguments. */
  start(callId: string, rawName: string, args: string | Record<string, unknown> | undefined, at: number, parentCallId?: string): boolean {
    const name = wellFormed(rawName);
    this.lastStartedCallId = callId;
    const existing = this.calls.get(callId);
    // Object arguments may be cyclic, hold BigInts, nest deeply or throw from a getter: shown as far as they can be.
    if (args !== undefined && typeof args !== 'string') args = readableArgs(args);
    // A huge argument string (a file write carrying the whole file) is read only as far as it is kept.
    else if (typeof args === 'string' && args.length > MAX_ARG_CHARS) args = args.slice(0, MAX_ARG_CHARS);
    const argText = wellFormed((args === undefined ? '' : typeof args === 'string' ? args : boundedJson(args, MAX_ARG_CHARS)).slice(0, MAX_ARG_CHARS));
    if (existing) {
      // A repeated start (e.g. re-sent with full args) keeps the first start time.
      if (existing.state === 'orphan') return false;
      existing.name = name;
      if (argText) {
        existing.args = argText;
        existing.detail = wellFormed(toolDetail(args, this.redact));
      }
      return true;
    }
    const parent = parentCallId === undefined ? undefined : this.calls.get(parentCallId);
    if (parent) parent.subagentTools = (parent.subagentTools ?? 0) + 1;
    this.calls.set(callId, {
      callId,
      name,
      args: argText,
      detail: wellFormed(toolDetail(args, this.redact)),
      state: 'running',
      startedAt: at,
      ...(parent ? { parentCallId } : {}),
    });
    this.runningCount += 1;
    return true;
  }

  /** `tool.args_delta`: streamed arguments; true when the call's detail line changed. */
  addArgs(callId: string, delta: string): boolean {
    const call = this.calls.get(callId);
    if (!call || call.args.length >= MAX_ARG_CHARS) return false;
    call.args = wellFormed((call.args + delta).slice(0, MAX_ARG_CHARS));
    const detail = toolDetail(call.args, this.redact);
    const changed = detail !== call.detail;
    call.detail = detail;
    return changed;
  }

  /** `tool.finished`: the call's result; a result before its start is a line with no timer. */
  finish(callId: string, rawSummary: string | undefined, isError: boolean, at: number): boolean {
    const summary = rawSummary === undefined ? undefined : this.redact(rawSummary);
    const call = this.calls.get(callId);
    if (!call) {
      this.calls.set(callId, { callId, name: callId, args: '', detail: '', state: 'orphan', summary, finishedAt: at });
      return true;
    }
    if (call.state === 'running') this.runningCount -= 1;
    else if (call.state !== 'interrupted') return false;
    call.state = isError ? 'failed' : 'finished';
    call.summary = summary;
    call.finishedAt = at;
    return true;
  }

  /** The round or run ended under the running calls: they show as interrupted at `at`. */
  interruptRunning(at: number): boolean {
    if (this.runningCount === 0) return false;
    this.endRunning('interrupted', at);
    return true;
  }

  /** The run completed: calls still running count as finished at `at`. */
  finishRunning(at: number): void {
    this.endRunning('finished', at);
  }

  /** The card lines at `end` (epoch ms), how many calls ran (results without a start not counted) and how many failed. */
  lines(end: number, locale: Locale): { readonly tools: ToolLine[]; readonly toolCount: number; readonly failedToolCount: number } {
    const tools: ToolLine[] = [];
    let toolCount = 0;
    let failedToolCount = 0;
    for (const call of this.calls.values()) {
      tools.push(toToolLine(call, end, locale));
      if (call.state !== 'orphan') toolCount += 1;
      if (call.state === 'failed') failedToolCount += 1;
    }
    return { tools, toolCount, failedToolCount };
  }

  private endRunning(state: 'interrupted' | 'finished', at: number): void {
    for (const call of this.calls.values()) {
      if (call.state === 'running') {
        call.state = state;
        call.finishedAt = at;
      }
    }
    this.runningCount = 0;
  }
}
