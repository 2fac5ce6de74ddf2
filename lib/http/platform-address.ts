/**
 * Reads the client address from the second argument a fetch runtime passes to its handler:
 * Bun passes the server (`server.requestIP(request)`), Deno passes `{ remoteAddr }`.
 * Workers pass bindings, which carry no address, so the result is undefined there.
 *
 * @example
 * Deno.serve((req, info) => app.fetch(req, info)); // clientAddress from info.remoteAddr.hostname
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
