/**
 * The Feishu emulator in a process of its own, for `npm run bench -- --real-time`: the platform's
 * work (HTTP parsing, card checks, rate-limit windows) does not run on the event loop being
 * measured. Prints one JSON line `{ baseUrl, appId, appSecret }` on stdout once listening; exits
 * when its stdin closes (the bench ended or died). Loopback only, a free port.
 */
import { startFeishuEmulator } from '@progresscard/emulator';

const emulator = await startFeishuEmulator({ host: '127.0.0.1', port: 0 });
const app = emulator.apps[0]!;
process.stdout.write(`${JSON.stringify({ baseUrl: emulator.baseUrl, appId: app.appId, appSecret: app.appSecret })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void emulator.close().finally(() => process.exit(0));
});
