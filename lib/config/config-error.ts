import { TesseraError } from '../common/tessera-error.js';

/**
 * One variable's problem, as a {@link ConfigError} lists it: the variable (`(config)` for a check
 * of the whole schema) and what is wrong, never a secret's value.
 *
 * @example
 * const problem: ConfigProblem = { variable: 'PORT', message: 'Invalid input: expected int, received number' };
 */
export interface ConfigProblem {
  readonly variable: string;
  readonly message: string;
}

/**
 * The environment does not satisfy a configuration's schema. Its message lists every problem,
 * each under its variable's name, and holds no secret's value (nor does anything else on the
 * error: no zod error, no input). Code `CONFIG_INVALID`.
 *
 * @example
 * try { AppConfig.load(env); } catch (e) { if (e instanceof ConfigError) for (const p of e.problems) console.error(p.variable, p.message); }
 */
export class ConfigError extends TesseraError {
  constructor(
    /** The configuration's name (`defineConfig`'s `name` option). */
    readonly config: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super('CONFIG_INVALID', `${config}: ${count} in the environment:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
  }

  /**
   * One error for several configurations that failed together (the app parses every one it uses
   * before it builds anything else), named `AppConfig, MailConfig`; the same error when there is one.
   *
   * @example
   * throw ConfigError.combine([appConfigError, mailConfigError]);
   */
  static combine(errors: readonly ConfigError[]): ConfigError {
    if (errors.length === 1 && errors[0] !== undefined) return errors[0];
    return new ConfigError(errors.map((e) => e.config).join(', '), errors.flatMap((e) => e.problems));
  }
}

/** The parts of a zod 4 issue read here; the input itself never is. */
export interface ConfigIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: unknown;
  readonly origin?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly format?: unknown;
  readonly values?: readonly unknown[];
}

/**
 * The problems of a failed parse. A secret's problem is said from the issue's kind and the
 * schema's own limits, never zod's message (a custom message may quote the value); and every
 * message is scrubbed of every secret's value (a check across variables may quote one).
 */
export function configProblems(issues: readonly ConfigIssue[], source: Readonly<Record<string, unknown>>, secrets: ReadonlySet<string>): ConfigProblem[] {
  const secretValues = [...secrets].map((name) => source[name]).filter((v): v is string => typeof v === 'string' && v !== '');
  return issues.map((issue) => {
    const variable = issue.path.length === 0 ? '(config)' : issue.path.map(String).join('.');
    const name = String(issue.path[0] ?? '');
    const unset = issue.path.length === 1 && source[name] === undefined;
    const message = unset && issue.code === 'invalid_type' ? `is not set (expected ${String(issue.expected)})` : secrets.has(name) ? secretMessage(issue) : issue.message;
    return { variable, message: scrub(message, secretValues) };
  });
}

function secretMessage(issue: ConfigIssue): string {
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${String(issue.expected)} (a secret: its value is not shown)`;
    case 'too_small':
      return `too short or small: at least ${String(issue.minimum)}${unit} (a secret: its value is not shown)`;
    case 'too_big':
      return `too long or big: at most ${String(issue.maximum)}${unit} (a secret: its value is not shown)`;
    case 'invalid_format':
      return `not a valid ${String(issue.format)} (a secret: its value is not shown)`;
    case 'invalid_value':
      return `not one of the allowed values (a secret: its value is not shown)`;
    default:
      return `invalid (${issue.code}; a secret: neither its value nor the check's message is shown)`;
  }
}

function scrub(message: string, secretValues: readonly string[]): string {
  let out = message;
  for (const value of secretValues) out = out.split(value).join('[secret]');
  return out;
}
