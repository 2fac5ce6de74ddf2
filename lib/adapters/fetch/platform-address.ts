/**
 * Reads the client address from the second argument a fetch runtime passes to its handler:
 * Bun passes the server (`server.requestIP(request)`), Deno passes `{ remoteAddr }`.
 * Workers pass bindings, which carry no address, so the result is undefined there.
 *
 * @example
 * addressFromPlatform(request, info); // Deno: info.remoteAddr.hostname
 */
export function addressFromPlatform(request: Request, platform: unknown): string | undefined {
  if (typeof platform !== 'object' || platform === null) return undefined;
  const bun = platform as { requestIP?: (req: Request) => { address?: unknown } | null };
  if (typeof bun.requestIP === 'function') {
    try {
      const address = bun.requestIP(request)?.address;
      return typeof address === 'string' ? address : undefined;
    } catch {
      return undefined;
    }
  }
  const deno = platform as { remoteAddr?: { hostname?: unknown } };
  const hostname = deno.remoteAddr?.hostname;
  return typeof hostname === 'string' ? hostname : undefined;
}

/** Whether the second handler argument is a runtime's connection info (Bun's server, Deno's info) rather than an environment. */
export function isConnectionInfo(platform: unknown): boolean {
  if (typeof platform !== 'object' || platform === null) return false;
  return typeof (platform as { requestIP?: unknown }).requestIP === 'function' || typeof (platform as { remoteAddr?: unknown }).remoteAddr === 'object';
}
