// The WebSocket load generator of bench/websocket.mjs: `connections` clients (the ws package), each
// sending a text message and, on its echo, the next one, for `seconds`. Prints one JSON line:
// messages echoed, their rate, and the p50/p99 round trip in µs.
import WebSocket from 'ws';

const [url, connectionsArg, secondsArg, sizeArg, warmupArg = '1'] = process.argv.slice(2);
const connections = Number(connectionsArg);
const seconds = Number(secondsArg);
const payload = 'x'.repeat(Number(sizeArg));
const latencies = new Float64Array(4_000_000);
let count = 0;
let measuring = false;
let stopped = false;

const sockets = await Promise.all(
  Array.from({ length: connections }, () => new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  })),
);
for (const ws of sockets) {
  let sent = 0;
  const next = () => {
    if (stopped) return;
    sent = performance.now();
    ws.send(payload);
  };
  ws.on('message', () => {
    if (measuring && count < latencies.length) latencies[count++] = (performance.now() - sent) * 1000;
    next();
  });
  next();
}
// A warm-up first (JIT, buffers, the connections' first reads); then the window.
await new Promise((r) => setTimeout(r, Number(warmupArg) * 1000));
measuring = true;
// Tells the harness to read the server's CPU time now: the window starts.
console.log(JSON.stringify({ event: 'start' }));
const started = performance.now();
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
stopped = true;
const elapsed = (performance.now() - started) / 1000;
const sorted = latencies.subarray(0, count).sort();
const at = (q) => (count === 0 ? 0 : sorted[Math.min(count - 1, Math.floor(q * count))]);
console.log(JSON.stringify({ event: 'end', messages: count, perSecond: count / elapsed, p50: at(0.5), p99: at(0.99), elapsed }));
for (const ws of sockets) ws.terminate();
process.exit(0);
