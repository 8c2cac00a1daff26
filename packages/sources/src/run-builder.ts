import { AgentEventSchema, type ImageInput, type PlanItem } from '@progresscard/core';
import { fileChangesFromCall, planFromCall, type FileChange } from './tool-effects.js';
import { RunToolCalls } from './run-tool-calls.js';
import type { TraceItem, TraceLocale } from './types.js';

/**
 * Summaries of tool calls that never got a result, closed when their run ends so no card keeps a
 * spinning tool: by a completed run (`no result recorded`), a cancelled one (`cancelled`, isError)
 * or a failed one (`run failed`, isError).
 */
export const UNFINISHED_TOOL_SUMMARY = {
  completed: 'no result recorded',
  cancelled: 'cancelled',
  failed: 'run failed',
} as const;

/**
 * The reason of a run that {@link RunBuilder.endRun} ends as interrupted because the recording
 * stops while tool calls still run, in the card's language: `names` are the running tools.
 */
export const RECORDING_ENDS_REASON: Readonly<Record<TraceLocale, (names: string) => string>> = {
  'zh-CN': (names) => `已中断：记录在 ${names} 运行时结束`,
  en: (names) => `interrupted: the recording ends while ${names} runs`,
};

/** Token counts of one model call, as {@link RunBuilder.usage} takes them. */
export interface UsageFields {
  inputTokens?: number;
  outputTokens?: number;
  contextTokens?: number;
  contextWindow?: number;
  /** The run's cost so far in US dollars as the source states it (kept as is, not rounded). */
  totalCostUsd?: number;
  model?: string;
}

/** The result of a tool call, as {@link RunBuilder.toolFinished} takes it. */
export interface ToolResult {
  summary?: string;
  isError?: boolean;
  /** The call's own duration in ms when the output reports one; the finish is then at least start + duration. */
  durationMs?: number;
  /** Images the call returned (a screenshot), shown on the card. */
  images?: readonly ImageInput[];
}

interface PendingPrompt {
  title: string | undefined;
  readonly at: number | undefined;
  readonly line: number;
}

type Fields = Record<string, unknown>;

/**
 * Turns format-neutral calls (a prompt, model output, a tool call, a result…) into agent events,
 * run by run. It owns the rules every format shares:
 * - **Clock**: `tick(at)` moves the clock to a record's time; it never goes back, so `at` never
 *   decreases. Events carry the clock; before the first time is known they carry none.
 * - **Runs**: `prompt()` remembers the user prompt; the run starts (with the prompt's time and the
 *   current model) at the first agent output after it. Output with no prompt starts an untitled run.
 * - **Rounds**: `modelOutput(key)` opens a round when the key (a message id) changes or, without a
 *   key, when model output follows input (a tool result, a prompt: see `inputArrived()`).
 * - **Tools**: start/finish matched by call id; a second start or finish of an id is ignored.
 * - **Endings**: `complete` / `fail` / `cancel` end the run at the clock; tool calls still open are
 *   closed first (see {@link UNFINISHED_TOOL_SUMMARY}) and the open round ends. `endRun()` infers an
 *   ending for a run whose trace records none, at the time of its last event: cancelled with
 *   {@link RECORDING_ENDS_REASON} when tool calls are still open (they stay open, so the card shows
 *   them interrupted, neither done nor failed), completed (answer = the last assistant text) otherwise.
 */
export class RunBuilder {
  /** Line of the record being converted; stamped on every item. */
  line = 0;
  /** Called before a run's terminal event, e.g. to flush usage held back per message. */
  beforeEnd: (() => void) | undefined;

  private clock: number | undefined;
  private lastAt: number | undefined;
  private atOverride: number | undefined;
  private runNo = 0;
  private startedAt: number | undefined;
  private active = false;
  private pending: PendingPrompt | undefined;
  private model: string | undefined;
  private round = 0;
  private roundKey: string | undefined;
  private accepting = false;
  private readonly tools = new RunToolCalls();
  private answerSeen = false;
  private thinkingSeen = false;
  private lastAnswer = '';
  private lastAnswerKey: string | undefined;
  /** Plan tool calls of this run: shown as the plan, so their results are not tool lines either. */
  private readonly planCalls = new Set<string>();
  /** File changes of running file-writing calls, sent when the call succeeds. */
  private readonly pendingFiles = new Map<string, FileChange[]>();
  /** Set once the format reported a file change itself: calls' arguments are not read for changes again. */
  private nativeFileChanges = false;

  /**
   * @param sink receives every item.
   * @param locale language of the texts written here (inferred endings); `zh-CN` by default.
   * @param stampLocale when true, every `run.started` carries `locale`.
   */
  constructor(
    private readonly sink: (item: TraceItem) => void,
    private readonly locale: TraceLocale = 'zh-CN',
    private readonly stampLocale = false,
  ) {}

  /** Moves the clock to `at` (epoch ms) unless that is earlier; undefined keeps the last time. */
  tick(at: number | undefined): void {
    if (at === undefined || !Number.isFinite(at)) return;
    const ms = Math.max(0, Math.round(at));
    this.clock = this.clock === undefined ? ms : Math.max(this.clock, ms);
  }

  /** Epoch ms of the current run's `run.started`, if a run is going and its time is known. */
  get runStartedAt(): number | undefined {
    return this.active ? this.startedAt : undefined;
  }

  /** True while a run has started and not ended. */
  get runActive(): boolean {
    return this.active;
  }

  /** True while tool calls of the current run are started and not finished. */
  get hasOpenTools(): boolean {
    return this.tools.openCount > 0;
  }

  /** The model used from now on (shown in `run.started`). */
  setModel(model: string | undefined): void {
    if (model) this.model = model;
  }

  /** Reports a record that could not be converted, at the current line. */
  error(message: string, line = this.line): void {
    this.sink({ kind: 'error', line, message: `line ${line}: ${message}` });
  }

  /**
   * A user prompt: the next run starts with it. A prompt that arrives while one is already waiting
   * keeps the first one's title (e.g. a slash command and the text it expands to). This does not end
   * a run still going; call {@link endRun} first when the prompt surely starts a new one.
   */
  prompt(title: string | undefined, at = this.clock): void {
    if (this.pending) this.pending.title ??= title;
    else this.pending = { title, at, line: this.line };
  }

  /** Forgets a waiting prompt (e.g. a local slash command that the model never saw). */
  dropPrompt(): void {
    this.pending = undefined;
  }

  /** Starts the run of a waiting prompt (ending the run before it), or an untitled run when none is going. */
  ensureRun(): void {
    if (this.pending) {
      const pending = this.pending;
      this.pending = undefined;
      if (this.active) this.endRun();
      this.startRun(pending.title, pending.at, pending.line);
    } else if (!this.active) {
      this.startRun(undefined, this.clock, this.line);
    }
  }

  /** Model output (thinking, text, a tool call). `key` identifies the model message when the format has one. */
  modelOutput(key?: string): void {
    this.ensureRun();
    const fresh = key !== undefined ? key !== this.roundKey || this.round === 0 : !this.accepting || this.round === 0;
    if (fresh) {
      if (this.round > 0) this.emit({ type: 'round.ended', round: this.round });
      this.round += 1;
      this.roundKey = key;
      this.emit({ type: 'round.started', round: this.round });
    }
    this.accepting = true;
  }

  /** Input for the model arrived (a tool result, a prompt): the next keyless model output opens a round. */
  inputArrived(): void {
    this.accepting = false;
  }

  /** Streamed reasoning; blocks after the first are separated by a blank line. */
  thinking(text: string): void {
    if (!this.active || !text.trim()) return;
    this.emit({ type: 'thinking.delta', text: this.thinkingSeen ? `\n\n${text}` : text });
    this.thinkingSeen = true;
  }

  /** Streamed answer text of model message `key`; blocks after the first are separated by a blank line. */
  answer(text: string, key: string): void {
    if (!this.active || !text.trim()) return;
    this.emit({ type: 'answer.delta', text: this.answerSeen ? `\n\n${text}` : text });
    this.answerSeen = true;
    this.lastAnswer = key === this.lastAnswerKey && this.lastAnswer ? `${this.lastAnswer}\n\n${text}` : text;
    this.lastAnswerKey = key;
  }

  /**
   * A tool call began. A repeated id is ignored. A plan tool call (`TodoWrite`, `update_plan`…)
   * sends `plan.updated` instead of a tool line; a file-writing call's changes are kept for its
   * successful finish (see `fileChangesFromCall`).
   */
  toolStarted(callId: string, name: string, args: string | undefined, parentCallId?: string): void {
    if (!this.active || this.tools.seen(callId) || this.planCalls.has(callId)) return;
    const plan = planFromCall(name, args);
    if (plan) {
      this.planCalls.add(callId);
      this.plan(plan);
      return;
    }
    if (!this.nativeFileChanges) {
      const files = fileChangesFromCall(name, args);
      if (files.length > 0) this.pendingFiles.set(callId, files);
    }
    this.tools.start(callId, name, this.clock);
    this.emit({ type: 'tool.started', callId, name, ...(args !== undefined ? { args } : {}), ...(parentCallId ? { parentCallId } : {}) });
  }

  /** Name of the open tool call `callId`, if any. */
  openToolName(callId: string): string | undefined {
    return this.tools.get(callId)?.name;
  }

  /** Id of the most recently started open tool call whose name is in `names`. */
  lastOpenToolId(names: readonly string[]): string | undefined {
    return this.tools.lastOpen(names)?.id;
  }

  /** Name of the most recently started open tool call whose name is in `names`. */
  lastOpenTool(names: readonly string[]): string | undefined {
    return this.tools.lastOpen(names)?.name;
  }

  /**
   * A tool call ended. A second finish of an id is ignored; a finish with no start still goes out
   * (the card shows it as an orphan result). With `durationMs`, the finish is at least start + duration.
   */
  toolFinished(callId: string, result: ToolResult = {}): void {
    if (!this.active || this.tools.hasFinished(callId)) return;
    if (this.planCalls.has(callId)) return;
    const files = this.pendingFiles.get(callId);
    this.pendingFiles.delete(callId);
    const open = this.tools.finish(callId);
    if (open?.startedAt !== undefined && result.durationMs !== undefined && result.durationMs > 0) {
      this.tick(open.startedAt + result.durationMs);
    }
    this.emit({
      type: 'tool.finished',
      callId,
      ...(result.summary ? { summary: result.summary } : {}),
      ...(result.isError ? { isError: true } : {}),
      ...(result.images && result.images.length > 0 ? { images: result.images.slice(0, 20) } : {}),
    });
    if (files && !result.isError) for (const file of files) this.emit({ type: 'file.changed', ...file });
  }

  /** The agent's plan as it stands now (the whole list). */
  plan(items: readonly PlanItem[]): void {
    if (this.active) this.emit({ type: 'plan.updated', items });
  }

  /**
   * Files the format itself reports changed (Codex `patch_apply_end`): from then on, calls' arguments
   * are no longer read for changes, so none is counted twice.
   */
  filesChanged(changes: readonly FileChange[]): void {
    this.nativeFileChanges = true;
    this.pendingFiles.clear();
    if (this.active) for (const change of changes) this.emit({ type: 'file.changed', ...change });
  }

  /** Token usage of one model call; dropped when every field is missing or no run is going or waiting. */
  usage(fields: UsageFields): void {
    if (!this.active && !this.pending) return;
    const clean: Fields = {};
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'model' ? typeof value === 'string' && value : typeof value === 'number' && Number.isFinite(value) && value >= 0) {
        clean[key] = key === 'model' || key === 'totalCostUsd' ? value : Math.round(value as number);
      }
    }
    if (clean.contextWindow === 0) delete clean.contextWindow;
    if (Object.keys(clean).every((key) => key === 'model')) return;
    if (!this.active) this.ensureRun();
    this.emit({ type: 'usage', ...clean });
  }

  /** The agent waits for the user (a question, a plan to approve); `callId` is the call that asks. */
  interaction(prompt: string, callId?: string): void {
    if (this.active && prompt.trim()) this.emit({ type: 'interaction.requested', prompt, ...(callId ? { callId } : {}) });
  }

  /** The run ended well; `answer` defaults to the last assistant text. */
  complete(answer?: string): void {
    if (this.startForEnding()) this.end('run.completed', { answer: answer?.trim() ? answer : this.lastAnswer || undefined }, false);
  }

  /** The run ended with an error. */
  fail(error: string): void {
    if (this.startForEnding()) this.end('run.failed', { error: error.trim() || 'unknown error' }, false);
  }

  /** The run was stopped. */
  cancel(reason?: string): void {
    if (this.startForEnding()) this.end('run.cancelled', { reason: reason?.trim() || undefined }, false);
  }

  /** Ends a run whose trace records no ending, as the trace suggests (see the class comment). */
  endRun(): void {
    if (!this.active) return;
    if (this.tools.openCount > 0) {
      const names = [...new Set(this.tools.openCalls().map((tool) => tool.name))].join(', ');
      // The open calls stay open: the card marks them interrupted when the run is cancelled.
      this.tools.abandonOpen();
      this.end('run.cancelled', { reason: RECORDING_ENDS_REASON[this.locale](names) }, true);
    } else {
      this.end('run.completed', { answer: this.lastAnswer || undefined }, true);
    }
  }

  /** End of input: the last run ends as the trace suggests; a prompt nobody answered is dropped. */
  finish(): void {
    this.endRun();
    this.pending = undefined;
  }

  private startForEnding(): boolean {
    if (this.pending) this.ensureRun();
    return this.active;
  }

  private startRun(title: string | undefined, at: number | undefined, line: number): void {
    this.runNo += 1;
    this.active = true;
    this.round = 0;
    this.roundKey = undefined;
    this.accepting = false;
    this.tools.clear();
    this.planCalls.clear();
    this.pendingFiles.clear();
    this.answerSeen = false;
    this.thinkingSeen = false;
    this.lastAnswer = '';
    this.lastAnswerKey = undefined;
    const current = this.line;
    this.startedAt = at ?? this.clock;
    this.atOverride = at;
    this.line = line;
    this.emit({
      type: 'run.started',
      ...(title ? { title } : {}),
      ...(this.model ? { model: this.model } : {}),
      ...(this.stampLocale ? { locale: this.locale } : {}),
    });
    this.atOverride = undefined;
    this.line = current;
  }

  private end(type: 'run.completed' | 'run.failed' | 'run.cancelled', fields: Fields, inferred: boolean): void {
    // An inferred ending happened when the run's last event did, not when the next record arrived.
    this.atOverride = inferred ? this.lastAt : undefined;
    this.beforeEnd?.();
    const kind = type === 'run.completed' ? 'completed' : type === 'run.failed' ? 'failed' : 'cancelled';
    for (const { id: callId } of this.tools.openCalls()) {
      this.tools.finish(callId);
      this.emit({ type: 'tool.finished', callId, summary: UNFINISHED_TOOL_SUMMARY[kind], ...(kind === 'completed' ? {} : { isError: true }) });
    }
    if (this.round > 0) this.emit({ type: 'round.ended', round: this.round });
    const clean = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    this.emit({ type, ...clean });
    this.atOverride = undefined;
    this.active = false;
  }

  private emit(fields: Fields): void {
    let at = this.atOverride ?? this.clock;
    if (at !== undefined && this.lastAt !== undefined && at < this.lastAt) at = this.lastAt;
    const candidate = at === undefined ? fields : { ...fields, at };
    const parsed = AgentEventSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      this.error(`dropped an invalid ${String(fields.type)} event: ${issue.path.join('.') || '(event)'} (${issue.message})`);
      return;
    }
    if (at !== undefined) this.lastAt = at;
    this.sink({ kind: 'event', line: this.line, run: this.runNo, event: parsed.data });
  }
}
