import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 39: valibot, ArkType and their converters are optional peers, loaded only when such a
// schema is met: no source file that ships imports them, and the package requires none of them.

const root = join(import.meta.dirname, '..', '..');
const PEERS = ['valibot', 'arktype', '@valibot/to-json-schema'];

function shippedSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return shippedSources(path);
    return entry.name.endsWith('.ts') && !/\.test(-helper)?\.ts$|\.test-helper\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('valibot and ArkType stay optional', () => {
  it('no file of lib/ or facade/ imports them (the OpenAPI converter loads @valibot/to-json-schema by a name in a variable)', () => {
    const importing = [...shippedSources(join(root, 'lib')), ...shippedSources(join(root, 'facade'))].filter((file) => {
      // Code only: doc comments show users the import (`@example import ... from 'valibot'`).
      const text = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n');
      return PEERS.some((peer) => new RegExp(`(from|import|import\\(|require\\()\\s*['"]${peer.replace('/', '\\/')}(/[^'"]*)?['"]`).test(text));
    });
    expect(importing.map((file) => relative(root, file)), 'sources importing an optional peer').toEqual([]);
  });

  it('package.json lists them as optional peers and dev dependencies only', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    for (const peer of PEERS) {
      expect(pkg.dependencies?.[peer], `${peer} is no dependency`).toBeUndefined();
      expect(pkg.peerDependencies?.[peer], `${peer} is a peer`).toBeDefined();
      expect(pkg.peerDependenciesMeta?.[peer], `${peer} is an optional peer`).toEqual({ optional: true });
      expect(pkg.devDependencies?.[peer], `${peer} is a dev dependency (tests, bench)`).toBeDefined();
    }
  });
});
