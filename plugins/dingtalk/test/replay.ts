import { faultCase, loadFaultCases, type FaultCase } from '@progresscard/core/testing';
import { DINGTALK_ROUTES, type DingTalkEmulator, type DingTalkRoute } from '@progresscard/emulator';

export type { FaultCase };

/** The DingTalk cases of the project's field fault list (copied from the shared cases). */
export function loadCase(id: string): FaultCase {
  return faultCase(loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url)), id);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Feeds the events in real time at their `at` offsets (ms) from `t0` (epoch ms). */
export async function replay(card: { push(event: unknown): unknown }, events: FaultCase['events'], t0: number): Promise<void> {
  for (const event of events) {
    const wait = t0 + event.at - Date.now();
    if (wait > 0) await sleep(wait);
    card.push({ ...event, at: t0 + event.at });
  }
}

function routeOf(method: string, path: string): DingTalkRoute {
  const entry = Object.entries(DINGTALK_ROUTES).find(([, r]) => r.method === method && r.path === path);
  if (!entry) throw new Error(`no emulator route for ${method} ${path}`);
  return entry[0] as DingTalkRoute;
}

/**
 * Installs a case's platform answers as emulator faults. Understands the two forms of the case list:
 * `DINGTALK <METHOD> <path> answers <status> <json> from <a> ms to <b> ms` (a time window from the
 * run start, i.e. the fault origin) and `DINGTALK <METHOD> <path> #<n> -> <status> <json>`.
 */
export function installPlatform(emulator: DingTalkEmulator, lines: readonly string[]): void {
  for (const line of lines) {
    const window = /^DINGTALK (\w+) (\S+) answers (\d{3}) (\{.*\}) from (\d+) ms to (\d+) ms$/.exec(line);
    if (window) {
      const [, method, path, status, body, from, to] = window;
      emulator.faults.add({
        route: routeOf(method!, path!),
        window: { fromMs: Number(from), toMs: Number(to) },
        respond: { status: Number(status), body: JSON.parse(body!) },
        label: line,
      });
      continue;
    }
    const nth = /^DINGTALK (\w+) (\S+) #(\d+) -> (\d{3}) (\{.*\})$/.exec(line);
    if (nth) {
      const [, method, path, n, status, body] = nth;
      emulator.faults.add({ route: routeOf(method!, path!), nth: Number(n), respond: { status: Number(status), body: JSON.parse(body!) }, label: line });
      continue;
    }
    throw new Error(`cannot read platform line: ${line}`);
  }
}
