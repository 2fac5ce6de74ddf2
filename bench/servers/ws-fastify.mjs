// WebSocket echo on Fastify 5 with @fastify/websocket (ws underneath).
import Fastify from 'fastify';
import websocket from '@fastify/websocket';

const app = Fastify({ logger: false });
await app.register(websocket, { options: { perMessageDeflate: false, maxPayload: 65_536 } });
app.register(async (scope) => {
  scope.get('/echo', { websocket: true }, (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
