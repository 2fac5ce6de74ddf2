/**
 * Field names whose values never reach a log line, at any depth, whatever their case: the
 * credentials HTTP carries in headers.
 */
export const ALWAYS_REDACTED: readonly string[] = Object.freeze(['authorization', 'cookie', 'set-cookie', 'x-api-key', 'proxy-authorization']);

/** What a redacted value is replaced with. */
export const REDACTED = '[Redacted]';

const MAX_DEPTH = 8;

/**
 * Makes the function that copies fields for a log line: values under a redacted name (the
 * credentials headers, plus `paths`, each a field name or a dot path such as `body.password`)
 * replaced by `[Redacted]`, errors as `{ type, message, stack }` (and their `code`), nesting
 * bounded. The paths are read once, here, not for every line.
 *
 * @example
 * createRedactor([])({ headers: { authorization: 'Bearer x' } }); // { headers: { authorization: '[Redacted]' } }
 */
export function createRedactor(paths: readonly string[]): (fields: Readonly<Record<string, unknown>>) => Record<string, unknown> {
  const names = new Set(ALWAYS_REDACTED);
  const dotted: string[][] = [];
  for (const path of paths) {
    if (path.includes('.')) dotted.push(path.toLowerCase().split('.'));
    else names.add(path.toLowerCase());
  }
  return (fields) => copy(fields, names, dotted, [], 0) as Record<string, unknown>;
}

function copy(value: unknown, names: ReadonlySet<string>, dotted: readonly string[][], at: readonly string[], depth: number): unknown {
  if (value instanceof Error) return serializeError(value);
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (depth >= MAX_DEPTH) return '[Object]';
  if (Array.isArray(value)) return value.map((item) => copy(item, names, dotted, at, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map || value instanceof Headers) return copy(Object.fromEntries(value), names, dotted, at, depth);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const lower = key.toLowerCase();
    const path = [...at, lower];
    out[key] = names.has(lower) || dotted.some((p) => p.length === path.length && p.every((part, i) => part === path[i])) ? REDACTED : copy(item, names, dotted, path, depth + 1);
  }
  return out;
}

function serializeError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.name, message: error.message, stack: error.stack };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (error.cause instanceof Error) out.cause = serializeError(error.cause);
  return out;
}
