// Usage: node --import ./scripts/register-swc.mjs examples/blog/main.ts
import { register } from 'node:module';
register('./swc-hooks.mjs', import.meta.url);
