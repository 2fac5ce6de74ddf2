// The optional breached-password check against a local server speaking the Pwned Passwords range
// API (GET /range/<5 hex>, `SUFFIX:COUNT` lines), never the real service.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LogFields, Logger } from '../../index.js';
import { AuthConfigError } from '../credentials/jwt/index.js';
import { BREACHED_PASSWORD_MESSAGE, createPwnedPasswordCheck, pwnedPasswordCheck } from './pwned-password-check.js';
import { resolvePasswordPolicy } from './password-policy.js';

const BREACHED = 'an old favourite password';
const CLEAN = 'a passphrase nobody has leaked';
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

interface Seen {
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
}
type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let base = '';
let seen: Seen[] = [];
let handler: Handler;
const server = createServer((request, response) => {
  seen.push({ url: request.url ?? '', headers: request.headers });
  handler(request, response);
});

/** The range answer: the breached password's suffix with `count`, padding lines (count 0) around it. */
function rangeAnswer(count: number, extra: readonly string[] = []): Handler {
  return (request, response) => {
    const prefix = (request.url ?? '').slice('/range/'.length);
    const lines = ['0018A45C4D1DEF81644B54AB7F969B88D65:0', '00D4F6E8FA6EECAD2A3AA415EEC418D38EC:2', ...extra];
    if (sha1(BREACHED).startsWith(prefix)) lines.push(`${sha1(BREACHED).slice(5)}:${count}`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  };
}

function capturingLogger(): Logger & { readonly lines: { fields: LogFields; message: string }[] } {
  const lines: { fields: LogFields; message: string }[] = [];
  const logger: Logger & { lines: typeof lines } = {
    lines,
    error: (fields, message) => void lines.push({ fields, message }),
    warn: (fields, message) => void lines.push({ fields, message }),
    info: (fields, message) => void lines.push({ fields, message }),
    debug: (fields, message) => void lines.push({ fields, message }),
    child: () => logger,
  };
  return logger;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  handler = rangeAnswer(3);
});

describe('pwnedPasswordCheck: what leaves the process', () => {
  it('asks for the 5-character upper-case SHA-1 prefix only, with Add-Padding', async () => {
    await pwnedPasswordCheck({ baseUrl: base })(BREACHED);
    expect(seen.map((s) => s.url), 'not exactly one range request for the prefix').toEqual([`/range/${sha1(BREACHED).slice(0, 5)}`]);
    expect(seen[0]?.headers['add-padding'], 'the padding header was not sent').toBe('true');
  });

  it('sends neither the password nor the rest of its hash anywhere in the request', async () => {
    await pwnedPasswordCheck({ baseUrl: base })(BREACHED);
    const request = JSON.stringify(seen);
    expect(request.includes(sha1(BREACHED).slice(5)), 'the hash suffix left the process').toBe(false);
    expect(request.toLowerCase().includes(sha1(BREACHED).slice(5).toLowerCase()), 'the hash suffix left the process').toBe(false);
    expect(request.includes(BREACHED), 'the password left the process').toBe(false);
  });
});

describe('pwnedPasswordCheck: the verdict', () => {
  it('refuses a password whose suffix the range lists with a count', async () => {
    expect(await pwnedPasswordCheck({ baseUrl: base })(BREACHED), 'a breached password was accepted').toBe(BREACHED_PASSWORD_MESSAGE);
  });

  it('accepts a password the range does not list', async () => {
    expect(await pwnedPasswordCheck({ baseUrl: base })(CLEAN), 'a clean password was refused').toBeUndefined();
  });

  it('accepts a password listed only as padding (count 0)', async () => {
    handler = rangeAnswer(0);
    expect(await pwnedPasswordCheck({ baseUrl: base })(BREACHED), 'a padding line counted as a breach').toBeUndefined();
  });

  it('accepts a password seen fewer times than minCount', async () => {
    expect(await pwnedPasswordCheck({ baseUrl: base, minCount: 4 })(BREACHED), 'minCount was ignored').toBeUndefined();
  });

  it('as the policy check, makes a breached password a 400 password problem', async () => {
    const policy = resolvePasswordPolicy({ check: pwnedPasswordCheck({ baseUrl: base }) });
    await expect(policy.enforce(BREACHED), 'the policy accepted a breached password').rejects.toMatchObject({ status: 400, message: BREACHED_PASSWORD_MESSAGE, details: { field: 'password' } });
  });
});

describe('pwnedPasswordCheck: when the service is unavailable', () => {
  it('fails closed by default: a 503, not a silent accept', async () => {
    handler = (_request, response) => void response.writeHead(500).end('down');
    await expect(pwnedPasswordCheck({ baseUrl: base })(BREACHED), 'an unavailable service let the password through').rejects.toMatchObject({ status: 503 });
  });

  it('with failOpen, accepts the password unchecked', async () => {
    handler = (_request, response) => void response.writeHead(500).end('down');
    expect(await pwnedPasswordCheck({ baseUrl: base, failOpen: true })(BREACHED), 'failOpen still refused').toBeUndefined();
  });

  it('treats an answer that is not the range format as unavailable', async () => {
    handler = (_request, response) => void response.writeHead(200).end('<html>captive portal</html>');
    await expect(pwnedPasswordCheck({ baseUrl: base })(BREACHED), 'a foreign answer was read as "not breached"').rejects.toMatchObject({ status: 503 });
  });

  it('treats an empty range as unavailable, not as "never breached"', async () => {
    handler = (_request, response) => void response.writeHead(200, { 'content-type': 'text/plain' }).end('');
    await expect(pwnedPasswordCheck({ baseUrl: base })(BREACHED), 'an empty answer was read as "not breached"').rejects.toMatchObject({ status: 503 });
  });

  it('treats a redirect as unavailable rather than following it', async () => {
    handler = (_request, response) => void response.writeHead(302, { location: 'http://127.0.0.1:1/range/00000' }).end();
    await expect(pwnedPasswordCheck({ baseUrl: base })(BREACHED), 'a redirect was followed or accepted').rejects.toMatchObject({ status: 503 });
  });

  it('gives up when its deadline fires, whatever the server does', async () => {
    const deadline = new AbortController();
    handler = () => deadline.abort(new DOMException('deadline', 'TimeoutError')); // never answers
    const check = createPwnedPasswordCheck({ baseUrl: base }, { deadline: () => deadline.signal });
    await expect(check(BREACHED), 'a hanging service was waited for past the deadline').rejects.toMatchObject({ status: 503 });
  });

  it('is bounded by timeoutMs with the real timer', async () => {
    handler = () => undefined; // never answers
    const started = performance.now();
    await expect(pwnedPasswordCheck({ baseUrl: base, timeoutMs: 50 })(BREACHED)).rejects.toMatchObject({ status: 503 });
    expect(performance.now() - started, 'timeoutMs did not bound the exchange').toBeLessThan(2_000);
  });

  it('logs a warning with the cause and never the password, its hash or the prefix', async () => {
    handler = (_request, response) => void response.writeHead(503).end();
    const logger = capturingLogger();
    await pwnedPasswordCheck({ baseUrl: base, failOpen: true, logger })(BREACHED);
    expect(logger.lines.map((l) => l.fields['event']), 'no warning').toEqual(['pwned-passwords-unavailable']);
    const written = JSON.stringify(logger.lines);
    expect(written, 'the cause is missing').toContain('status 503');
    for (const secret of [BREACHED, sha1(BREACHED), sha1(BREACHED).slice(0, 5), sha1(BREACHED).slice(5)]) expect(written.includes(secret), `the log holds ${secret.length === 5 ? 'the prefix' : 'a secret'}`).toBe(false);
  });
});

describe('pwnedPasswordCheck: options', () => {
  it.each(['http://pwned.example', 'ftp://127.0.0.1', 'not a url', 'https://api.example/?x=1'])('refuses baseUrl %j at once', (baseUrl) => {
    expect(() => pwnedPasswordCheck({ baseUrl }), `${baseUrl} was accepted`).toThrow(AuthConfigError);
  });

  it.each([0, -1, 1.5])('refuses timeoutMs %j at once', (timeoutMs) => {
    expect(() => pwnedPasswordCheck({ timeoutMs }), `timeoutMs ${timeoutMs} was accepted`).toThrow(AuthConfigError);
  });

  it('defaults to the public service', async () => {
    const asked: string[] = [];
    const check = pwnedPasswordCheck({ fetch: (input) => (asked.push(String(input)), Promise.resolve(new Response('0018A45C4D1DEF81644B54AB7F969B88D65:0', { status: 200 }))) });
    await check(CLEAN);
    expect(asked, 'not the public range endpoint').toEqual([`https://api.pwnedpasswords.com/range/${sha1(CLEAN).slice(0, 5)}`]);
  });
});
