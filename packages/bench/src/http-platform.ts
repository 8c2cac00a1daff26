import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { CardTransport, MessageRef, SendRequest, UpdateRequest } from '@progresscard/core';
import type { PlatformCall } from './platform.js';

/** A platform emulator running in a child process, reachable over loopback HTTP. */
export interface EmulatorProcess {
  readonly baseUrl: string;
  readonly appId: string;
  readonly appSecret: string;
  close(): Promise<void>;
}

/**
 * Starts the Feishu emulator in a child process (same Node and loader flags as this one) and
 * resolves once it listens.
 * @throws Error (as a rejection) when the child exits before printing its address.
 */
export async function startFeishuEmulatorProcess(): Promise<EmulatorProcess> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./emulator-process.ts', import.meta.url)), [], { execArgv: process.execArgv, stdio: ['pipe', 'pipe', 'inherit', 'ipc'] });
  let output = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const end = output.indexOf('\n');
      if (end >= 0) resolve(output.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`the Feishu emulator process exited with code ${code} before it listened`)));
  });
  const address = JSON.parse(line) as { baseUrl: string; appId: string; appSecret: string };
  return {
    ...address,
    close: async () => {
      child.stdin!.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/**
 * The plugin's own transport, observed: every call's outcome goes to `calls` at its answer (a
 * refusal under the code its failure is classified with), and `accepted(payload, at, target)` sees
 * each accepted payload with the card's target (on loopback the answer comes well under a
 * millisecond after the platform counted the call). Every other member is the transport's own.
 */
export function observedTransport(
  transport: CardTransport<unknown, unknown>,
  calls: PlatformCall[],
  accepted: (payload: unknown, at: number, target: unknown) => void,
): CardTransport<unknown, unknown> {
  const targets = new Map<string, unknown>();
  const observe = async <R>(route: 'send' | 'update', call: () => Promise<R>): Promise<R> => {
    try {
      const result = await call();
      calls.push({ route, at: Date.now(), code: undefined });
      return result;
    } catch (error) {
      const failure = transport.classify(error);
      calls.push({ route, at: Date.now(), code: failure.kind === 'rate-limited' ? (/\b\d{5,}\b/.exec(failure.detail)?.[0] ?? 'rate-limited') : failure.kind });
      throw error;
    }
  };
  const send = async (request: SendRequest<unknown, unknown>): Promise<MessageRef> => {
    const message = await observe('send', () => transport.send(request));
    targets.set(message.id, request.target);
    accepted(request.payload, Date.now(), request.target);
    return message;
  };
  const update = async (request: UpdateRequest<unknown>): Promise<void> => {
    await observe('update', () => transport.update(request));
    accepted(request.payload, Date.now(), targets.get(request.message.id));
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'send') return send;
      if (key === 'update') return update;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
