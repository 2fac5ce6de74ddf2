// The clients of the WebSocket memory scenario (bench/websocket-memory.mjs): opens `count` idle
// connections (the ws package, no compression) to `url`, at most `batch` handshakes at a time,
// from the loopback source address 127.0.0.<first>, the next address every 20,000 connections (one
// source address has ~28,000 ephemeral ports). Prints `opened <n>`; then, on stdin, `check` sends
// one message on every connection and prints `echoed <n>` once each has its echo (or after 20 s),
// and `end` drops them all and exits.
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const [url, countArg, firstAddressArg = '1', batchArg = '100'] = process.argv.slice(2);
const count = Number(countArg);
const firstAddress = Number(firstAddressArg);
const batch = Number(batchArg);
const payload = '{"text":"ping"}';
const sockets = [];

function open(index) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: `127.0.0.${firstAddress + Math.floor(index / 20_000)}` });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

let next = 0;
async function worker() {
  while (next < count) {
    const index = next++;
    sockets.push(await open(index));
  }
}
await Promise.all(Array.from({ length: Math.min(batch, count) }, worker));
let closed = 0;
for (const ws of sockets) ws.once('close', () => closed++);
console.log(`opened ${sockets.length}`);

createInterface({ input: process.stdin }).on('line', async (line) => {
  const command = line.trim();
  if (command === 'check') {
    let echoed = 0;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 20_000);
      for (const ws of sockets) {
        ws.once('message', () => {
          if (++echoed === sockets.length) {
            clearTimeout(timer);
            resolve();
          }
        });
        ws.send(payload);
      }
    });
    console.log(`echoed ${echoed} closed ${closed}`);
  } else if (command === 'end') {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
