import type { AgentEvent } from '@progresscard/core';
import { fileChangesFromCall, planFromCall, PLAN_TOOL_NAMES, type FileChange } from './tool-effects.js';

interface HeldCall {
  readonly name: string;
  args: string;
  /** True once the plan of a plan call was sent. */
  sent?: boolean;
}

/**
 * The meaning of plan and file-writing tool calls, for a live stream of agent events (the AI SDK
 * and OpenAI Agents adapters map SDK parts to events one by one): a plan tool call (`TodoWrite`,
 * `update_plan`… see {@link PLAN_TOOL_NAMES}) becomes `plan.updated` once its arguments are whole
 * (a repeated start with them, or its finish) and is no tool line; a file-writing call that finishes
 * without error is followed by its `file.changed` events. Other events pass unchanged. Trace readers
 * do the same in their run builder; do not put their events through this again.
 */
export class ToolEffects {
  private readonly plans = new Map<string, HeldCall>();
  private readonly writes = new Map<string, HeldCall>();

  /** The events to send for `event`, in order (none for the parts of a plan call). */
  apply(event: AgentEvent): AgentEvent[] {
    switch (event.type) {
      case 'tool.started': {
        const args = event.args === undefined ? '' : typeof event.args === 'string' ? event.args : JSON.stringify(event.args);
        const held = this.plans.get(event.callId);
        if (held || PLAN_TOOL_NAMES.has(event.name)) {
          const call = held ?? { name: event.name, args: '' };
          if (args) call.args = args;
          this.plans.set(event.callId, call);
          return this.planOf(call, event.at);
        }
        const write = this.writes.get(event.callId);
        if (write) write.args = args || write.args;
        else this.writes.set(event.callId, { name: event.name, args });
        return [event];
      }
      case 'tool.args_delta': {
        const held = this.plans.get(event.callId);
        if (held) {
          held.args += event.delta;
          return [];
        }
        const write = this.writes.get(event.callId);
        if (write) write.args += event.delta;
        return [event];
      }
      case 'tool.finished': {
        const held = this.plans.get(event.callId);
        if (held) {
          this.plans.delete(event.callId);
          return this.planOf(held, event.at);
        }
        const write = this.writes.get(event.callId);
        this.writes.delete(event.callId);
        if (!write || event.isError) return [event];
        const files: FileChange[] = fileChangesFromCall(write.name, write.args);
        return [event, ...files.map((file): AgentEvent => ({ type: 'file.changed', ...file, ...(event.at === undefined ? {} : { at: event.at }) }))];
      }
      default:
        return [event];
    }
  }

  /** `plan.updated` once the held call's arguments read as a plan (sent once per call). */
  private planOf(call: HeldCall, at: number | undefined): AgentEvent[] {
    if (call.sent) return [];
    const items = planFromCall(call.name, call.args);
    if (!items) return [];
    call.sent = true;
    return [{ type: 'plan.updated', items, ...(at === undefined ? {} : { at }) }];
  }
}
