/**
 * Typed keys for the open metadata map carried by routes and controllers.
 *
 * Auth writes roles and scopes, OpenAPI writes summaries and tags, applications write their own;
 * guards and generators read them back. No global registry: the data lives on the definitions.
 *
 * @example
 * const CACHE_TTL = createMetadataKey<number>('app:cache-ttl');
 * get('/', { metadata: [CACHE_TTL.with(60)] }, () => 'ok');
 */
export interface MetadataKey<T> {
  readonly id: string;
  /** How a route's value and its controller's combine; see {@link MetadataCombine}. */
  readonly combine: MetadataCombine;
  /** Builds an entry for this key: a route/controller option and, equally, a decorator. */
  with(value: T): MetadataEntry<T>;
  /** Type carrier only. */
  readonly __type?: T;
}

/**
 * How a route's value for a key combines with its controller's, declared once on the key and
 * applied by {@link readRouteMetadata}, so that no reader reimplements precedence:
 * `replace` (default): the route's value when it has one, else the controller's;
 * `append`: both arrays, the controller's first;
 * `merge`: both objects, the route's fields over the controller's.
 *
 * @example
 * const TAGS = createMetadataKey<readonly string[]>('docs:tags', { combine: 'append' });
 */
export type MetadataCombine = 'replace' | 'append' | 'merge';

/** Where decorators store entries: an own property on the class or prototype, no global map. */
const DECORATED = Symbol.for('tessera:metadata');

type MetadataRecord = Record<string, unknown>;
interface DecoratedStore {
  readonly cls: MetadataRecord;
  readonly members: Map<string | symbol, MetadataRecord>;
}

/**
 * One key/value pair of metadata. It is also a decorator, so one value serves both styles:
 * `metadata: [Roles('admin')]` in the builder, `@Roles('admin')` on a class or method.
 *
 * @example
 * const entry = CACHE_TTL.with(60);
 * get('/', { metadata: [entry] }, handler);
 * class C { @entry list() {} }
 */
export interface MetadataEntry<T = unknown> {
  (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor): void;
  readonly key: MetadataKey<T>;
  readonly value: T;
}

/**
 * Creates a typed metadata key. Ids are namespaced strings (`'auth:roles'`).
 *
 * @example
 * const ROLES = createMetadataKey<readonly string[]>('auth:roles');
 * const entry = ROLES.with(['admin']);
 */
export function createMetadataKey<T>(id: string, options: { readonly combine?: MetadataCombine } = {}): MetadataKey<T> {
  const key: MetadataKey<T> = Object.freeze({
    id,
    combine: options.combine ?? 'replace',
    with(value: T): MetadataEntry<T> {
      const entry = function decorate(target: object, propertyKey?: string | symbol): void {
        writeDecoratedMetadata(target, propertyKey, id, value);
      } as MetadataEntry<T>;
      Object.defineProperties(entry, { key: { value: key }, value: { value } });
      return Object.freeze(entry);
    },
  });
  return key;
}

/**
 * Turns a list of entries into the frozen record stored on definitions; a later entry for the
 * same key wins, as a later decorator would.
 *
 * @example
 * metadataRecord([ROLES.with(['admin'])]); // { 'auth:roles': ['admin'] }
 */
export function metadataRecord(entries: readonly MetadataEntry[] | undefined): Readonly<MetadataRecord> {
  const record: MetadataRecord = {};
  if (entries) for (const entry of entries) record[entry.key.id] = entry.value;
  return Object.freeze(record);
}

/**
 * Reads a key from a metadata record.
 *
 * @example
 * const roles = readMetadata(route.metadata, ROLES); // readonly string[] | undefined
 */
export function readMetadata<T>(record: Readonly<MetadataRecord>, key: MetadataKey<T>): T | undefined {
  return record[key.id] as T | undefined;
}

/**
 * The effective value of a key for a route: its own value and its controller's, combined as
 * the key declares ({@link MetadataCombine}). The one place route-over-controller precedence
 * is decided.
 *
 * @example
 * readRouteMetadata(ctx.route, API_TAGS); // controller tags then route tags
 */
export function readRouteMetadata<T>(
  route: { readonly metadata: Readonly<MetadataRecord>; readonly controllerMetadata: Readonly<MetadataRecord> },
  key: MetadataKey<T>,
): T | undefined {
  const own = route.metadata[key.id] as T | undefined;
  const inherited = route.controllerMetadata[key.id] as T | undefined;
  if (own === undefined) return inherited;
  if (inherited === undefined || key.combine === 'replace') return own;
  if (key.combine === 'append') return [...(inherited as unknown as unknown[]), ...(own as unknown as unknown[])] as unknown as T;
  return { ...(inherited as object), ...(own as object) } as T;
}

function writeDecoratedMetadata(target: object, member: string | symbol | undefined, id: string, value: unknown): void {
  // Class decorators get the constructor; member decorators get the prototype (or the
  // constructor for static members). Either way the store lives on that object itself.
  let store = Object.prototype.hasOwnProperty.call(target, DECORATED)
    ? ((target as Record<symbol, DecoratedStore>)[DECORATED] as DecoratedStore)
    : undefined;
  if (!store) {
    store = { cls: {}, members: new Map() };
    Object.defineProperty(target, DECORATED, { value: store, enumerable: false });
  }
  if (member === undefined) {
    // Decorators apply bottom-up, so for a repeated key the topmost is applied last and wins.
    store.cls[id] = value;
  } else {
    let record = store.members.get(member);
    if (!record) store.members.set(member, (record = {}));
    record[id] = value;
  }
}

/**
 * Reads what metadata decorators recorded on a class (`member` undefined) or on one of its
 * methods. Used by the facade; returns a fresh frozen record.
 *
 * @example
 * readDecoratedMetadata(PostsController);            // class-level entries
 * readDecoratedMetadata(PostsController.prototype, 'remove'); // method-level entries
 */
export function readDecoratedMetadata(target: object, member?: string | symbol): Readonly<MetadataRecord> {
  if (!Object.prototype.hasOwnProperty.call(target, DECORATED)) return Object.freeze({});
  const store = (target as Record<symbol, DecoratedStore>)[DECORATED] as DecoratedStore;
  const record = member === undefined ? store.cls : store.members.get(member);
  return Object.freeze({ ...record });
}
