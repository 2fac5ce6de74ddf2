// WebSocket echo on raw Bun.serve: the floor on Bun.
Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  fetch: (request, server) => (server.upgrade(request) ? undefined : new Response('no', { status: 400 })),
  websocket: { message: (ws, message) => void ws.send(message), perMessageDeflate: false },
});
console.log('ready');
