/**
 * The protocol by which a decorated class hands the core its plain definition.
 *
 * The facade attaches a function under this symbol to every decorated class; the core calls
 * it while building the app, so class-style and builder-style inputs meet as the same data.
 * `Symbol.for` keeps the protocol intact even if two copies of the package are loaded.
 *
 * @example
 * class Legacy {}
 * Object.defineProperty(Legacy, DEFINITION, { value: () => defineModule({ name: 'Legacy' }) });
 */
export const DEFINITION: unique symbol = Symbol.for('tessera:definition') as never;

/**
 * A value (usually a decorated class) that can produce its definition on demand.
 *
 * @example
 * function isCarrier(x: unknown): x is DefinitionCarrier<ModuleDefinition> { return hasDefinition(x); }
 */
export interface DefinitionCarrier<D> {
  readonly [DEFINITION]: () => D;
}

/**
 * Whether a value carries a definition.
 *
 * @example
 * if (hasDefinition(PostsModule)) { const def = PostsModule[DEFINITION](); }
 */
export function hasDefinition(value: unknown): value is DefinitionCarrier<unknown> {
  return (
    (typeof value === 'function' || (typeof value === 'object' && value !== null)) &&
    typeof (value as { [DEFINITION]?: unknown })[DEFINITION] === 'function'
  );
}
