import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { Writable } from 'node:stream';
import { jsonLogger } from './json-logger.js';
import type { Logger } from './logger.js';

function capture(options: Parameters<typeof jsonLogger>[0] = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = jsonLogger({ now: () => 1_764_000_000_000, ...options, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('jsonLogger', () => {
  it('writes one JSON object per line with level, time, msg and the fields', () => {
    const { logger, lines } = capture();
    logger.info({ status: 200 }, 'request completed');
    expect(lines).toEqual([{ level: 'info', time: 1_764_000_000_000, msg: 'request completed', status: 200 }]);
  });

  it('drops lines below its level threshold', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.debug({}, 'd');
    logger.info({}, 'i');
    logger.warn({}, 'w');
    logger.error({}, 'e');
    expect(lines.map((line) => line.level), 'only warn and above are written').toEqual(['warn', 'error']);
  });

  it('writes nothing at level silent', () => {
    const { logger, lines } = capture({ level: 'silent' });
    logger.error({}, 'e');
    expect(lines).toEqual([]);
  });

  it('adds the bindings of a child to each of its lines, the child\u2019s own winning', () => {
    const { logger, lines } = capture({ bindings: { service: 'blog' } });
    logger.child({ requestId: 'r1' }).child({ route: 'GET /x' }).info({ status: 200 }, 'done');
    expect(lines[0]).toMatchObject({ service: 'blog', requestId: 'r1', route: 'GET /x', status: 200 });
  });

  it('serialises an error as its type, message and stack', () => {
    const { logger, lines } = capture();
    const error = Object.assign(new TypeError('boom'), { code: 'E_BOOM' });
    logger.error({ err: error }, 'failed');
    expect(lines[0]?.err).toMatchObject({ type: 'TypeError', message: 'boom', code: 'E_BOOM' });
    expect(String((lines[0]?.err as { stack: string }).stack), 'the stack is kept').toContain('json-logger.test.ts');
  });

  it('redacts credentials headers at any depth, whatever their case', () => {
    const { logger, lines } = capture();
    logger.info({ headers: { Authorization: 'Bearer abc', cookie: 'sid=1', 'X-Api-Key': 'tk_x', 'set-cookie': ['a=1'], accept: '*/*' } }, 'headers');
    expect(lines[0]?.headers).toEqual({ Authorization: '[Redacted]', cookie: '[Redacted]', 'X-Api-Key': '[Redacted]', 'set-cookie': '[Redacted]', accept: '*/*' });
  });

  it('redacts configured names and dot paths', () => {
    const { logger, lines } = capture({ redact: ['password', 'body.card.number'] });
    logger.info({ body: { password: 'hunter2', card: { number: '4111', brand: 'visa' } }, user: { password: 'x' } }, 'input');
    expect(lines[0]).toMatchObject({ body: { password: '[Redacted]', card: { number: '[Redacted]', brand: 'visa' } }, user: { password: '[Redacted]' } });
  });

  it('still writes the line when a field cannot be serialised', () => {
    const { logger, lines } = capture();
    logger.info({ big: 10n, bad: { toJSON: () => { throw new Error('no'); } } }, 'odd');
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'odd' });
  });

  it('keeps a value that tries to forge a line or a field inside its own string (log injection, ASVS 16.4.1)', () => {
    const raw: string[] = [];
    const logger = jsonLogger({ now: () => 1_764_000_000_000, write: (line) => raw.push(line) });
    const forged = 'bob\n{"level":"info","msg":"sign-in succeeded","subject":"admin"}\r\u2028", "subject": "admin';
    logger.warn({ identifier: forged }, `failed sign-in for ${forged}`);
    expect(raw, 'one write per call').toHaveLength(1);
    // U+2028 stays as JSON allows it: a line separator to some viewers, not to line-based log shippers.
    expect(raw[0], 'a raw line break reached the log').not.toMatch(/[\n\r]/);
    const line = JSON.parse(raw[0] ?? '') as Record<string, unknown>;
    expect(line.identifier, 'the value changed on its way').toBe(forged);
    expect(line.subject, 'the value added a field of its own').toBeUndefined();
  });
});

describe('a pino instance as the Logger', () => {
  it('fits the interface and writes the fields, the message and the child bindings', () => {
    const out: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => { out.push(chunk.toString()); done(); } });
    const logger: Logger = pino({ base: undefined }, stream);
    logger.child({ requestId: 'r1' }).error({ err: new Error('boom'), status: 500 }, 'Unhandled error while serving a request');
    const line = JSON.parse(out.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 50, requestId: 'r1', status: 500, msg: 'Unhandled error while serving a request' });
    expect(line.err, 'pino serialises err itself').toMatchObject({ type: 'Error', message: 'boom' });
  });
});
