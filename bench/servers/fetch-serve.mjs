// Serves a fetch handler with the runtime's own server: `Bun.serve` on Bun, `Deno.serve` on Deno.
/** @example serveFetch((request) => new Response('ok'), { port: 3000, host: '127.0.0.1', ready }); */
export function serveFetch(fetch, { port, host, ready }) {
  if (globalThis.Bun !== undefined) {
    globalThis.Bun.serve({ fetch, port, hostname: host });
    ready();
  } else if (globalThis.Deno !== undefined) {
    globalThis.Deno.serve({ port, hostname: host, onListen: () => ready() }, fetch);
  } else {
    throw new Error('serveFetch runs on Bun or Deno');
  }
}
