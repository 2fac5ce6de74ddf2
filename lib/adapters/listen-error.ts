import { TesseraError } from '../index.js';

/**
 * What every server adapter rejects `listen` with when it cannot bind: a port another server
 * holds becomes a `TesseraError` (`SERVER_PORT_IN_USE`) naming the address and the ways out, with
 * the runtime's error as its cause (Node, Bun and Deno all give it the code `EADDRINUSE`); any
 * other error is returned as the runtime raised it.
 *
 * @example
 * try { Bun.serve(options); } catch (error) { throw listenError(error, port, hostname); }
 */
export function listenError(error: unknown, port: number, host: string): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'EADDRINUSE') return error;
  return new TesseraError(
    'SERVER_PORT_IN_USE',
    `Cannot listen on ${host}:${port}: the port is in use (another process, or another server of this one, is listening there). Stop that server, or listen on another port (for example PORT=${port + 1}, or 0 to pick a free one).`,
    { cause: error },
  );
}
