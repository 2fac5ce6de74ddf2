// The app's one trusted-proxy rule (createApp's clientAddress): what ctx.clientAddress answers.
// Requests arrive as Deno hands them over (the peer in `remoteAddr`), so the app sees a socket.
import { describe, expect, it } from 'vitest';
import { toFetchHandler } from '../fetch.js';
import { createApp, defineController, defineModule, get, type AppOptions } from '../index.js';

const whoami = defineController({ name: 'WhoAmI', routes: () => ({ ip: get('/ip', (ctx) => ({ ip: ctx.clientAddress ?? null })) }) });
const Root = defineModule({ name: 'Root', controllers: [whoami] });

async function addressSeen(options: AppOptions, peer: string, forwardedFor?: string): Promise<string | null> {
  const app = await createApp(Root, options);
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  const res = await toFetchHandler(app)(new Request('http://localhost/ip', { headers }), { remoteAddr: { hostname: peer } });
  return ((await res.json()) as { ip: string | null }).ip;
}

describe("createApp's clientAddress: one rule for ctx.clientAddress", () => {
  it('by default, is the socket peer in canonical form and ignores X-Forwarded-For', async () => {
    expect(await addressSeen({}, '::ffff:192.0.2.7', '203.0.113.9'), 'an IPv4-mapped peer reads as IPv4; the header is not read').toBe('192.0.2.7');
  });

  it('is undefined for an in-process call, whatever the headers say', async () => {
    const app = await createApp(Root, { clientAddress: { trustedProxyHops: 1 } });
    const res = await app.request('/ip', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await res.json(), 'a header cannot stand in for the missing socket').toEqual({ ip: null });
  });

  it('behind trusted proxies, is the address the outermost one saw', async () => {
    const rule = { clientAddress: { trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] } };
    expect(await addressSeen(rule, '10.0.0.5', '6.6.6.6, 203.0.113.9'), 'the rightmost entry, written by the proxy').toBe('203.0.113.9');
  });

  it('keeps the peer when it is not a trusted proxy, so a client bypassing the proxy cannot choose its address', async () => {
    const rule = { clientAddress: { trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] } };
    expect(await addressSeen(rule, '198.51.100.4', '203.0.113.9')).toBe('198.51.100.4');
  });

  it('fails the boot on a bad rule, not the first request', async () => {
    await expect(createApp(Root, { clientAddress: { trustedProxyHops: -1 } }), 'a negative hop count').rejects.toThrow(/clientAddress\.trustedProxyHops/);
    await expect(createApp(Root, { clientAddress: { trustedProxyHops: 1, isTrustedProxy: ['10.0.0.1/8'] } }), 'a proxy network with host bits').rejects.toThrow(/10\.0\.0\.0\/8/);
  });
});
