// Imports every subpath export of the installed package from ESM and prints what each exports.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('./node_modules/tessera-http/package.json', import.meta.url), 'utf8'));
const result = {};
for (const subpath of Object.keys(manifest.exports)) {
  if (subpath === './package.json') continue;
  const specifier = subpath === '.' ? 'tessera-http' : `tessera-http/${subpath.slice(2)}`;
  const esm = Object.keys(await import(specifier)).sort();
  const cjs = Object.keys(require(specifier)).filter((name) => name !== '__esModule').sort();
  result[specifier] = { esm, cjs };
}
console.log(JSON.stringify(result));
