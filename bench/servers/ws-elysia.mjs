// WebSocket echo on Elysia 1.4 (Bun's own websocket underneath).
import { Elysia } from 'elysia';

new Elysia().ws('/echo', { message: (ws, message) => void ws.send(message) }).listen({ hostname: '127.0.0.1', port: Number(process.env.PORT) });
console.log('ready');
