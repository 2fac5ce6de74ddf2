/**
 * The smallest `Reflect.metadata` that TypeScript's (and swc's, and oxc's) emitted
 * `__metadata("design:paramtypes", [...])` calls need. The emitted helper calls
 * `Reflect.metadata` only if it exists, so without this shim constructor types are silently
 * lost. Values live in a WeakMap keyed by the decorated object, so nothing leaks and nothing
 * is global beyond the two functions the emitted code looks for. When the `reflect-metadata`
 * package is loaded, it is used instead.
 */
type Store = WeakMap<object, Map<string | symbol | undefined, Map<unknown, unknown>>>;

interface ReflectWithMetadata {
  metadata?: (key: unknown, value: unknown) => (target: object, property?: string | symbol) => void;
  getOwnMetadata?: (key: unknown, target: object, property?: string | symbol) => unknown;
}

const reflect = Reflect as unknown as ReflectWithMetadata;

if (typeof reflect.metadata !== 'function') {
  const store: Store = new WeakMap();
  reflect.metadata = (key, value) => (target, property) => {
    let byProperty = store.get(target);
    if (!byProperty) store.set(target, (byProperty = new Map()));
    let entries = byProperty.get(property);
    if (!entries) byProperty.set(property, (entries = new Map()));
    entries.set(key, value);
  };
  reflect.getOwnMetadata = (key, target, property) => store.get(target)?.get(property)?.get(key);
}

/**
 * The constructor parameter types TypeScript recorded for a decorated class, if any.
 *
 * @example
 * readParamTypes(PostsController); // [PostsService]
 */
export function readParamTypes(target: object): readonly unknown[] | undefined {
  const value = reflect.getOwnMetadata?.('design:paramtypes', target);
  return Array.isArray(value) ? value : undefined;
}
