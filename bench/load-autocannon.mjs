// Load generator child process for bench/run.mjs when wrk is absent: one autocannon run with
// its programmatic API, one JSON line on stdout. Pinned by the parent.
import autocannon from 'autocannon';

const o = JSON.parse(process.argv[2]);
const r = await autocannon({ url: o.url, method: o.method, headers: o.headers, body: o.body, connections: o.connections, pipelining: 1, duration: o.duration });
process.stdout.write(
  `${JSON.stringify({ rps: r.requests.average, total: r.requests.total, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts })}\n`,
);
