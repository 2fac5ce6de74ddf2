import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm start` (the blog) with the OpenTelemetry SDK's standard environment: its spans reach an
// OTLP/HTTP (JSON) receiver on loopback, its metrics a Prometheus scrape, its logs are JSON lines.
const root = join(import.meta.dirname, '..', '..');

interface OtlpSpan { name: string; kind: number; traceId: string; attributes: { key: string; value: Record<string, unknown> }[] }
interface OtlpExport { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] }

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('the blog example with OTEL_* set', () => {
  const exports: OtlpExport[] = [];
  let receiver: Server;
  let blog: ChildProcess;
  let output = '';
  let url = '';
  let prometheusPort = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') exports.push(JSON.parse(body) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    prometheusPort = await freePort();
    blog = spawn(process.execPath, ['--import', './scripts/register-swc.mjs', 'examples/blog/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        OTEL_SERVICE_NAME: 'blog-under-test',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(prometheusPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    blog.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    blog.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the blog did not start:\n${output}`)), 30_000);
      const check = () => {
        const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        } else setTimeout(check, 25);
      };
      check();
    });
    expect((await fetch(`${url}/posts`)).status).toBe(200);
    expect((await fetch(`${url}/posts/does-not-exist`)).status).toBe(404);
  }, 60_000);

  afterAll(() => {
    blog.kill('SIGKILL');
    receiver.close();
  });

  it('serves Prometheus metrics with the request duration histogram, by route template', async () => {
    const text = await (await fetch(`http://127.0.0.1:${prometheusPort}/metrics`)).text();
    // The exporter leaves the unit out of the name (`_seconds` in some versions): accept both.
    expect(text).toMatch(/http_server_request_duration(_seconds)?_bucket\{[^}]*http_route="\/posts"[^}]*\}/);
    expect(text, 'no raw path in metric labels').not.toContain('does-not-exist');
  });

  it('writes its log as JSON lines, the access line with route and status', () => {
    const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === 'request completed' && line.path === '/posts')).toMatchObject({ level: 'info', route: 'GET /posts', status: 200 });
  });

  it('exports its spans over OTLP/HTTP JSON, flushed on SIGTERM, under OTEL_SERVICE_NAME', async () => {
    const exited = new Promise<number | null>((resolve) => blog.once('exit', resolve));
    blog.kill('SIGTERM');
    expect(await exited, 'a clean exit').toBe(0);
    const spans = exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const services = exports.flatMap((e) => e.resourceSpans.map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue));
    expect(services).toContain('blog-under-test');
    const list = spans.find((span) => span.name === 'GET /posts');
    expect(list, `no GET /posts span among ${spans.map((s) => s.name).join(', ')}`).toBeDefined();
    expect(list?.kind, 'a SERVER span').toBe(2);
    expect(list?.attributes.find((a) => a.key === 'http.route')?.value).toEqual({ stringValue: '/posts' });
  });
});
