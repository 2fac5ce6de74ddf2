// WebSocket echo with the raw `ws` package on node:http: the floor the Node frameworks are held to.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const server = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, path: '/echo', perMessageDeflate: false, maxPayload: 65_536 });
wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
