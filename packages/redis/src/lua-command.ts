import type { Redis } from 'ioredis';

/** A Lua script run with EVALSHA (ioredis sends the script itself only when Redis does not know it, e.g. after a restart). */
export type LuaCommand = (numberOfKeys: number, ...keysAndArgs: string[]) => Promise<unknown>;

/** Defines `name` on `client` once (clients are shared by the stores) and returns it. */
export function luaCommand(client: Redis, name: string, lua: string): LuaCommand {
  const commands = client as unknown as Record<string, LuaCommand | undefined>;
  if (typeof commands[name] !== 'function') client.defineCommand(name, { lua });
  const command = commands[name]!;
  return (numberOfKeys, ...keysAndArgs) => command.call(client, numberOfKeys, ...keysAndArgs);
}
