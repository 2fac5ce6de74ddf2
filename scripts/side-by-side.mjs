// Usage: node scripts/side-by-side.mjs <npm script> <npm script>...
//
// Runs the named npm scripts of this package at the same time and waits for all of them: `npm test`
// type-checks and builds side by side before vitest. Each of the two is mostly one thread (tsc's
// checker; tsup's declaration pass), so one after the other they left a core idle for most of a
// minute. Each script's output is held and printed whole when it ends, so a failing type-check
// reads as it would alone. Exits with the first failing script's code (after every script ended),
// 0 when all passed.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/side-by-side.mjs <npm script>...');
  process.exit(2);
}

// Under npm, npm_execpath is the npm that runs us: the same npm (and Node) for the children.
const npm = process.env.npm_execpath;
const command = (name) => (npm ? [process.execPath, [npm, 'run', name]] : ['npm', ['run', name]]);

function run(name) {
  const started = Date.now();
  const [file, args] = command(name);
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: !npm && process.platform === 'win32' });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ name, code: 1, output: [Buffer.from(`${error.message}\n`)], seconds: 0 }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }));
  });
}

let failed = 0;
await Promise.all(
  names.map(async (name) => {
    const { code, output, seconds } = await run(name);
    process.stdout.write(Buffer.concat(output));
    console.log(`[side-by-side] npm run ${name}: ${code === 0 ? 'done' : `failed (exit code ${code})`} in ${seconds.toFixed(1)} s`);
    if (code !== 0 && failed === 0) failed = code;
  }),
);
process.exit(failed);
