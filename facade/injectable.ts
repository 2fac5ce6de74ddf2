import './reflect-shim.js';
import { TesseraError, type InjectionToken } from '../lib/index.js';
import { DEFINITION } from '../lib/internal/definitions.js';
import { classRecord } from './class-store.js';
import { readParamTypes } from './reflect-shim.js';

/**
 * The dependency list of a decorated class: constructor parameter types from decorator
 * metadata, with `@Inject(token)` overriding per parameter. Fails with a message naming the
 * class and both fixes when the metadata is missing (esbuild, tsx and some bundlers do not
 * emit it) or when a parameter's type is not a class (an interface or a type-only import).
 */
export function resolveConstructorDeps(cls: abstract new (...args: never[]) => unknown): InjectionToken<unknown>[] {
  const injects = classRecord(cls).injects;
  const types = readParamTypes(cls);
  const count = Math.max(cls.length, types?.length ?? 0, ...[...injects.keys()].map((i) => i + 1));
  const deps: InjectionToken<unknown>[] = [];
  for (let index = 0; index < count; index++) {
    const explicit = injects.get(index);
    if (explicit) {
      deps.push(explicit);
      continue;
    }
    if (!types) {
      throw new TesseraError(
        'PROVIDER_METADATA_MISSING',
        `Cannot resolve the constructor parameters of ${cls.name}: no decorator metadata was emitted for it. ` +
          `Either compile with "emitDecoratorMetadata": true using a compiler that supports it (tsc, swc, vite/oxc; not esbuild or tsx) ` +
          `and make sure ${cls.name} has a class decorator, or mark every parameter with @Inject(token).`,
      );
    }
    const type = types[index];
    if (typeof type !== 'function' || NOT_A_TOKEN.has(type)) {
      throw new TesseraError(
        'PROVIDER_PARAMETER_UNTYPED',
        `Cannot resolve parameter #${index} of ${cls.name}'s constructor: its type has no run-time class (the metadata says ${describeType(type)}). ` +
          `Was a class imported with "import type" (tsc then records Function)? Import it as a value. ` +
          `For an interface, a union or a primitive, mark the parameter with @Inject(token).`,
      );
    }
    deps.push(type as InjectionToken<unknown>);
  }
  return deps;
}

// What decorator metadata records for a parameter whose type is erased: Object for interfaces and
// unions, Function for a class imported with `import type` (tsc), the wrappers for primitives.
// None of them is ever a provider token.
const NOT_A_TOKEN = new Set<unknown>([Object, Function, String, Number, Boolean, Symbol, BigInt, Array, Promise]);

function describeType(type: unknown): string {
  return typeof type === 'function' ? type.name || 'an anonymous function' : String(type);
}

function memoize<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/**
 * Attaches a lazily built, memoized definition to a class (see the core's DEFINITION protocol).
 * Lazy, so that a class referring to one declared later in the file still works, and errors
 * about missing metadata surface in `createApp`, where they belong.
 */
export function attachDefinition(cls: object, build: () => unknown): void {
  Object.defineProperty(cls, DEFINITION, { value: memoize(build), enumerable: false, configurable: true });
}

/**
 * Marks a class as a provider whose dependencies come from its constructor parameter types.
 *
 * @example
 * @Injectable()
 * class PostsService { constructor(private readonly store: PostsStore) {} }
 */
export function Injectable(): ClassDecorator {
  return (target) => {
    const cls = target as unknown as abstract new (...args: never[]) => unknown;
    attachDefinition(cls, () =>
      Object.freeze({ kind: 'class', provide: cls, useClass: cls, inject: Object.freeze(resolveConstructorDeps(cls)) }),
    );
  };
}

/**
 * Names the token for one constructor parameter: for tokens that are not classes, and as the
 * way to work without decorator metadata.
 *
 * @example
 * @Injectable()
 * class Mailer { constructor(@Inject(CONFIG) private readonly config: Config) {} }
 */
export function Inject(token: InjectionToken<unknown>): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey !== undefined) throw new TypeError('@Inject() is for constructor parameters.');
    classRecord(target).injects.set(index, token);
  };
}
