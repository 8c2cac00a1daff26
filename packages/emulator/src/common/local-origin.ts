/**
 * DNS rebinding: a page on `http://evil.example:4870` whose name the attacker re-points at
 * 127.0.0.1 may call a loopback server as if it were its own site, and read the answers (the
 * preview's `/api/state`, an emulator's messages). Such a request still names the attacker's host
 * in `Host` and its site in `Origin`, so a loopback server answers only requests that name it.
 */

/** Host names a loopback server answers to, besides the one it listens on and any allowed extra. */
const LOOPBACK_HOST_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** Listen hosts that stand for every interface: they name no host a request could carry. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/** `host` as it appears in a `Host` header: lower case, an IPv6 address in brackets. */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** The host names a server listening on `listenHost` answers to, with `extra` ones allowed by its owner. */
export function allowedHostNames(listenHost: string, extra: readonly string[] = []): ReadonlySet<string> {
  const names = new Set(LOOPBACK_HOST_NAMES);
  if (!WILDCARD_HOSTS.has(listenHost)) names.add(hostName(listenHost));
  for (const name of extra) names.add(hostName(name));
  return names;
}

/** Splits a `Host` header (`name:port`, `[v6]:port`) into name and port; the port is undefined when absent. */
function parseHostHeader(header: string): { readonly name: string; readonly port: number | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!match) return undefined;
  return { name: match[1]!.toLowerCase(), port: match[2] === undefined ? undefined : Number(match[2]) };
}

/**
 * Why a request must be refused, or undefined when it names this server: its `Host` must be one of
 * `hosts` with the server's `port` (or no port when that is 80), and its `Origin`, when sent, must
 * be `http://` one of them with that port (an `Origin: null` page, sandboxed or from a file, is
 * refused too). Requests from programs (SDKs, curl) send no `Origin` and pass.
 */
export function foreignRequestReason(headers: Headers, hosts: ReadonlySet<string>, port: number): string | undefined {
  const hostHeader = headers.get('host');
  const host = hostHeader === null ? undefined : parseHostHeader(hostHeader);
  if (!host || !hosts.has(host.name) || (host.port ?? 80) !== port) return `Host ${JSON.stringify(hostHeader)} is not this server`;
  const origin = headers.get('origin');
  if (origin === null) return undefined;
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  const sameSite = url !== undefined && url.protocol === 'http:' && hosts.has(url.hostname.toLowerCase()) && (url.port === '' ? 80 : Number(url.port)) === port;
  if (!sameSite) return `Origin ${JSON.stringify(origin)} is another site`;
  return undefined;
}
