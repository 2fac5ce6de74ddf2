// Preloaded into every server of the WebSocket memory scenario (bench/websocket-memory.mjs):
// `node --expose-gc --import ./bench/ws-memory-probe.mjs server`, `bun --preload ...`. On a
// `measure` line on stdin it collects garbage several times (full GCs, with turns of the event
// loop between them so that finalizers and weak references settle), then prints
// `memory {heapUsed, rss, external, arrayBuffers}`. `snapshot <path>` writes a V8 heap snapshot
// (Node only), for finding what each connection retains.
import { createInterface } from 'node:readline';

const collect = () => {
  if ('Bun' in globalThis) globalThis.Bun.gc(true);
  else globalThis.gc();
};
const turn = () => new Promise((resolve) => setTimeout(resolve, 30));

createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, argument] = line.trim().split(' ');
  if (command === 'measure') {
    for (let i = 0; i < 6; i++) {
      collect();
      await turn();
    }
    const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
    process.stdout.write(`memory ${JSON.stringify({ heapUsed, heapTotal, rss, external, arrayBuffers })}\n`);
  } else if (command === 'snapshot') {
    collect();
    const { writeHeapSnapshot } = await import('node:v8');
    process.stdout.write(`snapshot ${writeHeapSnapshot(argument)}\n`);
  }
});
