import type { AgentEvent, BudgetStore, CardRenderer, CardTransport } from '@progresscard/core';

type SlotRequest = Parameters<BudgetStore['reserve']>[0];
import { percentile } from './tracker.js';

/** One tool start or finish, from its push to the accepted call that showed it (epoch ms). */
export interface ToolChangeTrace {
  readonly run: number;
  readonly index: number;
  readonly pushedAt: number;
  /** The first render of the card that showed the change (it may have been put back: no slot yet). */
  firstRenderAt?: number;
  /** Renders of the card that showed the change before the one that went out. */
  rendersPutBack: number;
  /** The render that went out, the call leaving with it, and its answer (or arrival, on the model). */
  renderAt?: number;
  leftAt?: number;
  acceptedAt?: number;
}

/** A reservation whose departure is this many ms after it was made counts as booked ahead. */
const BOOKED_AHEAD_MS = 20;

interface RenderMark {
  readonly run: number;
  readonly at: number;
  readonly toolChanges: number;
}

/**
 * `npm run bench -- --idle --trace`: where a tool change waits, event by event, so that the same
 * seed's simulated and real-time schedules can be compared: from its push to the first render that
 * shows it (the card's interval, its lane's slot, the pump waking), renders put back (rendered, no
 * slot yet), from the render that went out to its call leaving (a departure timer), and from
 * leaving to the platform's acceptance (the model: half a round trip; HTTP: the whole round trip).
 * Also the arrival delays the core reserved slots with and how late reserved departures left.
 * Runs are recognised by the synthetic workload's card titles (`Run <i>`).
 */
export class ScheduleTrace {
  readonly tools: ToolChangeTrace[] = [];
  private readonly open = new Map<number, ToolChangeTrace[]>();
  private readonly toolCount = new Map<number, number>();
  private readonly marks = new WeakMap<object, RenderMark>();
  private readonly leftAt = new WeakMap<object, number>();
  renders = 0;
  calls = 0;
  /** Arrival delay (ms) of each reservation. */
  readonly arrivalDelays: number[] = [];
  /** Per lane (first key): the slot a card was told to wait for (no slot yet). */
  private readonly promised = new Map<string, number>();
  /** Per kind of key (its name without ids): how long cards were told to wait for it when it bound, ms. */
  readonly bindingWaits = new Map<string, number[]>();
  /** Each slot decision: a card told to wait (with the binding key) or a reservation, with the run when known. */
  readonly decisions: { at: number; run: number | undefined; reserved: boolean; departure: number; binding?: string; rank?: string; keys?: string; stack?: string }[] = [];
  private readonly runOfMessage = new Map<string, number>();
  /** How far ahead each slot booked more than {@link BOOKED_AHEAD_MS} ahead was, ms. */
  readonly bookedAhead: number[] = [];
  /** How long after a promised slot the lane's next reservation came (the pump's wake-up lateness), ms. */
  readonly slotLateness: number[] = [];
  /** Reservations per route (the first key's last part: create, patch…) and slot rank: who took the slots. */
  readonly reservedByRouteAndRank = new Map<string, number>();

  pushed(run: number, event: AgentEvent, at: number): void {
    if (event.type !== 'tool.started' && event.type !== 'tool.finished') return;
    const index = (this.toolCount.get(run) ?? 0) + 1;
    this.toolCount.set(run, index);
    const change: ToolChangeTrace = { run, index, pushedAt: at, rendersPutBack: 0 };
    this.tools.push(change);
    const open = this.open.get(run) ?? [];
    open.push(change);
    this.open.set(run, open);
  }

  /** A renderer that marks each payload with its render time and what it shows. */
  wrap<P>(renderer: CardRenderer<P>): CardRenderer<P> {
    const mark = (payload: P, view: Parameters<CardRenderer<P>['render']>[0]): P => {
      this.renders += 1;
      const run = Number(/^Run (\d+)$/.exec(view.title)?.[1] ?? Number.NaN);
      let done = 0;
      for (const tool of view.tools) if (tool.state !== 'running') done += 1;
      const toolChanges = view.tools.length + done;
      const at = Date.now();
      if (payload && typeof payload === 'object') this.marks.set(payload, { run, at, toolChanges });
      for (const change of this.open.get(run) ?? []) {
        if (change.index > toolChanges) break;
        if (change.firstRenderAt === undefined) change.firstRenderAt = at;
        else change.rendersPutBack += 1;
      }
      return payload;
    };
    return { ...renderer, render: (view) => mark(renderer.render(view), view), renderFallback: (view) => mark(renderer.renderFallback(view), view) };
  }

  /** A transport that notes when each payload's call leaves. */
  wrapTransport<T, P>(transport: CardTransport<T, P>): CardTransport<T, P> {
    const left = (payload: unknown) => {
      const now = Date.now();
      this.calls += 1;
      if (payload && typeof payload === 'object') this.leftAt.set(payload, now);
    };
    return new Proxy(transport, {
      get: (target, key) => {
        if (key === 'send')
          return async (request: Parameters<CardTransport<T, P>['send']>[0]) => {
            left(request.payload);
            const message = await target.send(request);
            const mark = request.payload && typeof request.payload === 'object' ? this.marks.get(request.payload) : undefined;
            if (mark) this.runOfMessage.set(message.id, mark.run);
            return message;
          };
        if (key === 'update')
          return (request: Parameters<CardTransport<T, P>['update']>[0]) => {
            left(request.payload);
            return target.update(request);
          };
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** A budget store that notes each reservation's arrival delay, the key that made a card wait, and how late a waited-for slot was taken. */
  wrapStore(store: BudgetStore): BudgetStore {
    const noted = (request: SlotRequest, departure: number) => {
      const lane = request.keys[0]?.key ?? '';
      const promised = this.promised.get(lane);
      if (promised !== undefined) {
        this.promised.delete(lane);
        this.slotLateness.push(departure - promised);
      }
      this.arrivalDelays.push(request.arrivalDelayMs);
      const route = `${(request.keys[0]?.key ?? '').split(':').at(-1)} ${request.rank ?? '–'}`;
      this.reservedByRouteAndRank.set(route, (this.reservedByRouteAndRank.get(route) ?? 0) + 1);
      const now = Date.now();
      // A slot booked ahead: who booked it (the pump reserves only slots due now).
      const bookedBy = departure - now > BOOKED_AHEAD_MS ? { keys: request.keys.map((k) => k.key).join(' '), stack: new Error().stack?.split('\n').slice(2, 9).join(' | ') ?? '' } : {};
      this.decisions.push({ at: now, run: this.runOf(request), reserved: true, departure, ...bookedBy, ...(request.rank ? { rank: request.rank } : {}) });
      if (departure - now > BOOKED_AHEAD_MS) this.bookedAhead.push(departure - now);
      return departure;
    };
    return {
      reserve: (request) => {
        const departure = store.reserve(request);
        return typeof departure === 'number' ? noted(request, departure) : departure.then((at) => noted(request, at));
      },
      nextDeparture: (request) => {
        const promise = (departure: number) => {
          const lane = request.keys[0]?.key ?? '';
          const now = Date.now();
          if (departure >= now + 1) {
            if (!this.promised.has(lane)) this.promised.set(lane, departure);
            // Which key binds: the one whose own departure is the latest (the in-memory store answers at once).
            let binding = '';
            let latest = Number.NEGATIVE_INFINITY;
            for (const key of request.keys) {
              const own = store.nextDeparture({ ...request, keys: [key] });
              if (typeof own === 'number' && own > latest) [latest, binding] = [own, key.key.replace(/:[^:]*\d[^:]*$/, ':<id>')];
            }
            this.decisions.push({ at: now, run: this.runOf(request), reserved: false, departure, binding, ...(request.rank ? { rank: request.rank } : {}) });
            const waits = this.bindingWaits.get(binding) ?? [];
            waits.push(departure - now);
            this.bindingWaits.set(binding, waits);
          }
          return departure;
        };
        const departure = store.nextDeparture(request);
        return typeof departure === 'number' ? promise(departure) : departure.then(promise);
      },
      pauseUntil: (key, epochMs) => store.pauseUntil(key, epochMs),
    };
  }

  private runOf(request: SlotRequest): number | undefined {
    for (const { key } of request.keys) {
      const id = /^feishu:message:(.+)$/.exec(key)?.[1];
      if (id !== undefined) return this.runOfMessage.get(id);
    }
    return undefined;
  }

  /** The platform accepted `payload` of run `run` at `at`: the changes it shows are done. */
  accepted(run: number, payload: unknown, at: number): void {
    const mark = payload && typeof payload === 'object' ? this.marks.get(payload) : undefined;
    if (!mark) return;
    const open = this.open.get(run) ?? [];
    while (open.length > 0 && open[0]!.index <= mark.toolChanges) {
      const change = open.shift()!;
      change.renderAt = mark.at;
      change.leftAt = this.leftAt.get(payload as object);
      change.acceptedAt = at;
    }
  }

  /** Percentiles (p50 / p90 / p99) of each leg of a tool change's wait, and of the estimates and timers, as lines. */
  summary(): string[] {
    const done = this.tools.filter((t) => t.acceptedAt !== undefined && t.renderAt !== undefined && t.firstRenderAt !== undefined);
    const legs: [string, number[]][] = [
      ['push → first render', done.map((t) => t.firstRenderAt! - t.pushedAt)],
      ['first render → render sent', done.map((t) => t.renderAt! - t.firstRenderAt!)],
      ['render sent → call left', done.filter((t) => t.leftAt !== undefined).map((t) => t.leftAt! - t.renderAt!)],
      ['call left → accepted', done.filter((t) => t.leftAt !== undefined).map((t) => t.acceptedAt! - t.leftAt!)],
      ['push → accepted', done.map((t) => t.acceptedAt! - t.pushedAt)],
      ['renders put back per change', done.map((t) => t.rendersPutBack)],
      ['arrival delay of reservations', this.arrivalDelays],
      ['slot wake-up lateness (lane)', this.slotLateness],
      [`slots booked over ${BOOKED_AHEAD_MS} ms ahead (${this.bookedAhead.length}×), how far`, this.bookedAhead],
      ...[...this.bindingWaits].map(([key, waits]): [string, number[]] => [`told to wait for ${key} (${waits.length}×)`, waits]),
    ];
    const fmt = (values: number[]) => [50, 90, 99].map((p) => (values.length ? percentile(values, p).toFixed(1) : '–')).join(' / ');
    const reserved = [...this.reservedByRouteAndRank].sort(([a], [b]) => (a < b ? -1 : 1));
    return [
      `slots reserved by route and rank: ${reserved.map(([route, count]) => `${route} ${count}`).join(', ')}`,
      `renders ${this.renders}, calls ${this.calls} (${(this.renders / Math.max(1, this.calls)).toFixed(2)} renders a call); tool changes traced ${done.length} of ${this.tools.length}`,
      ...legs.map(([label, values]) => `  ${label}: p50 / p90 / p99 ${fmt(values)}`),
    ];
  }
}
