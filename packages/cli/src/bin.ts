#!/usr/bin/env node
import { EXIT } from './errors.js';
import { processIO } from './io.js';
import { main } from './main.js';

// First Ctrl-C: stop gracefully (running cards end as cancelled, servers close). Second: exit now.
const controller = new AbortController();
let interrupts = 0;
const onSignal = () => {
  interrupts += 1;
  if (interrupts > 1) process.exit(EXIT.interrupted);
  controller.abort(new Error('interrupted'));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// A reader that stops early (`progresscard --help | head -3`) closes the pipe: stop as on Ctrl-C
// (running cards end as cancelled) instead of crashing on the unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (!controller.signal.aborted) controller.abort(new Error('the output was closed'));
  });
}

const code = await main(process.argv.slice(2), processIO(controller.signal));
process.exitCode = code;
// Keep-alive sockets of the SDKs must not hold the process open once everything is closed.
setTimeout(() => process.exit(code), 1000).unref();
