import { DEFINITION, hasDefinition } from '../common/definition-carrier.js';
import type { ControllerDefinition, ControllerInput } from '../routing/controller.js';
import { CircularDependencyError, MissingProviderError, ModuleGraphError, ProviderNotVisibleError } from '../di/di-errors.js';
import type { ModuleDefinition, ModuleInput } from './module.js';
import { normalizeProvider, type ProviderDefinition, type ProviderInput } from '../di/provider.js';
import { tokenName, type InjectionToken } from '../common/token.js';

/** One provider inside one module, and its instance once built. */
interface ProviderRecord {
  readonly definition: ProviderDefinition;
  readonly module: ModuleRecord;
  state: 'new' | 'building' | 'built';
  instance: unknown;
}

/**
 * One module of the resolved graph.
 *
 * @example
 * for (const m of container.modules) console.log(m.name, m.controllers.length);
 */
export interface ModuleRecord {
  readonly definition: ModuleDefinition;
  readonly name: string;
  readonly imports: ModuleRecord[];
  readonly providers: Map<InjectionToken<unknown>, ProviderRecord>;
  readonly controllers: readonly ControllerDefinition[];
  /** What importers of this module can see: token -> the providing record. */
  exported: Map<InjectionToken<unknown>, ProviderRecord> | undefined;
}

/**
 * Resolves a module graph and builds its providers as singletons, in dependency order.
 *
 * Visibility: a provider is visible in its own module, in modules that import a module
 * exporting it (exports can pass on an imported module's exports), and everywhere when its
 * module is `global` and exports it.
 *
 * @example
 * const container = new Container(AppModule);
 * const store = await container.resolve(container.root, PostsStore, 'main');
 */
/**
 * Replacements applied while the module graph is read, for tests (`tessera-http/testing`):
 * a provider by its token, wherever a module declares it (imported, dynamic, global, class or
 * builder modules alike), and a whole module by identity. Definitions are never changed.
 *
 * @example
 * new Container(AppModule, { providers: new Map([[PostsStore, { provide: PostsStore, useValue: fake }]]) });
 */
export interface GraphOverrides {
  /** Token -> the provider that replaces every declaration of it (its `provide` is the token). */
  readonly providers?: ReadonlyMap<InjectionToken<unknown>, ProviderInput>;
  /** Module (definition or class) -> the module used in its place wherever it is imported. */
  readonly modules?: ReadonlyMap<ModuleInput, ModuleInput>;
}

export class Container {
  readonly root: ModuleRecord;
  /** Modules in initialization order: every module after the modules it imports. */
  readonly modules: ModuleRecord[] = [];
  /** Instances in the order they were built; lifecycle hooks follow it. */
  readonly instances: unknown[] = [];
  private readonly records = new Map<ModuleDefinition, ModuleRecord>();
  private readonly globalExports = new Map<InjectionToken<unknown>, ProviderRecord>();
  private readonly implicit = new Map<ModuleRecord, Map<InjectionToken<unknown>, ProviderRecord>>();
  private readonly providerOverrides: ReadonlyMap<InjectionToken<unknown>, ProviderInput>;
  private readonly moduleOverrides = new Map<ModuleDefinition, ModuleDefinition>();
  private readonly usedOverrides = new Set<unknown>();

  constructor(root: ModuleInput, overrides: GraphOverrides = {}) {
    this.providerOverrides = overrides.providers ?? new Map();
    for (const [original, replacement] of overrides.modules ?? []) this.moduleOverrides.set(toModuleDefinition(original), toModuleDefinition(replacement));
    this.root = this.collect(toModuleDefinition(root), new Set());
    for (const record of this.modules) this.computeExports(record, new Set());
    for (const record of this.modules) {
      if (!record.definition.global) continue;
      for (const [token, provider] of record.exported ?? []) this.globalExports.set(token, provider);
    }
  }

  /**
   * Overrides that matched nothing in the graph (a token nobody provides or uses as a guard or
   * interceptor, a module nobody imports): a test that thinks it replaced something but did not.
   */
  unusedOverrides(): string[] {
    const unused: string[] = [];
    for (const token of this.providerOverrides.keys()) if (!this.usedOverrides.has(token)) unused.push(tokenName(token));
    for (const [original] of this.moduleOverrides) if (!this.usedOverrides.has(original)) unused.push(`module ${original.name}`);
    return unused;
  }

  /** Resolves a token as seen from a module, building it (and its dependencies) if needed. */
  async resolve<T>(module: ModuleRecord, token: InjectionToken<T>, requestedBy: string, chain: string[] = []): Promise<T> {
    const record = this.find(module, token, requestedBy);
    return (await this.build(record, [...chain, requestedBy])) as T;
  }

  /**
   * Resolves a guard or interceptor class that no module registered as a provider: it is built
   * like a provider of `module` (Nest does the same), once per module.
   */
  async resolveOrConstruct<T>(module: ModuleRecord, token: InjectionToken<T>, requestedBy: string): Promise<T> {
    // Only a class nobody provides is built on the spot; one provided elsewhere but not visible
    // here is a wiring mistake that the visibility error explains.
    const providedSomewhere = this.modules.some((m) => m.providers.has(token));
    if (this.isVisible(module, token) || providedSomewhere || typeof token !== 'function') {
      return this.resolve(module, token, requestedBy);
    }
    let local = this.implicit.get(module);
    if (!local) this.implicit.set(module, (local = new Map()));
    let record = local.get(token);
    if (!record) {
      record = { definition: this.providerDefinition(token), module, state: 'new', instance: undefined };
      local.set(token, record);
    }
    return (await this.build(record, [requestedBy])) as T;
  }

  /** A provider that is already built, resolved as seen from `module`. */
  get<T>(module: ModuleRecord, token: InjectionToken<T>, requestedBy: string): T {
    const record = this.findVisible(module, token) ?? this.modules.find((m) => m.providers.has(token))?.providers.get(token) ?? this.find(module, token, requestedBy);
    if (record.state !== 'built') throw new ModuleGraphError(`${tokenName(token)} is not built yet.`);
    return record.instance as T;
  }

  /** Builds every provider of every module, in module order. */
  async buildAll(): Promise<void> {
    for (const module of this.modules) {
      for (const record of module.providers.values()) await this.build(record, []);
    }
  }

  private isVisible(module: ModuleRecord, token: InjectionToken<unknown>): boolean {
    return this.findVisible(module, token) !== undefined;
  }

  private findVisible(module: ModuleRecord, token: InjectionToken<unknown>): ProviderRecord | undefined {
    const own = module.providers.get(token);
    if (own) return own;
    for (const imported of module.imports) {
      const found = imported.exported?.get(token);
      if (found) return found;
    }
    return this.globalExports.get(token);
  }

  private find(module: ModuleRecord, token: InjectionToken<unknown>, requestedBy: string): ProviderRecord {
    const found = this.findVisible(module, token);
    if (found) return found;
    const providing = this.modules
      .filter((m) => m.providers.has(token))
      .map((m) => ({ name: m.name, exports: m.exported?.has(token) ?? false }));
    if (providing.length > 0) throw new ProviderNotVisibleError(token, requestedBy, module.name, providing);
    throw new MissingProviderError(token, requestedBy, module.name);
  }

  private async build(record: ProviderRecord, chain: string[]): Promise<unknown> {
    if (record.state === 'built') return record.instance;
    const definition = record.definition;
    const name = tokenName(definition.provide);
    if (record.state === 'building') throw new CircularDependencyError([...chain.slice(chain.indexOf(name)), name]);
    if (definition.kind === 'value') {
      record.state = 'built';
      record.instance = definition.useValue;
      return record.instance;
    }
    if (definition.kind === 'existing') {
      record.state = 'building';
      try {
        record.instance = await this.build(this.find(record.module, definition.useExisting, name), [...chain, name]);
      } catch (error) {
        record.state = 'new';
        throw error;
      }
      record.state = 'built';
      return record.instance;
    }
    record.state = 'building';
    const here = [...chain, name];
    try {
      const deps: unknown[] = [];
      for (const dep of definition.inject) {
        if (dep === undefined) {
          throw new ModuleGraphError(`${name} lists an undefined dependency; this is usually a circular import between files.`);
        }
        const depRecord = this.find(record.module, dep, name);
        deps.push(await this.build(depRecord, here));
      }
      record.instance =
        definition.kind === 'class'
          ? new definition.useClass(...(deps as never[]))
          : await definition.useFactory(...(deps as never[]));
    } catch (error) {
      record.state = 'new';
      throw error;
    }
    record.state = 'built';
    this.instances.push(record.instance);
    return record.instance;
  }

  /** The provider definition for a declaration, or its override. */
  private providerDefinition(input: ProviderInput): ProviderDefinition {
    const declared = normalizeProvider(input);
    const override = this.providerOverrides.get(declared.provide);
    if (override === undefined) return declared;
    this.usedOverrides.add(declared.provide);
    return normalizeProvider(override);
  }

  private collect(declared: ModuleDefinition, visiting: Set<ModuleDefinition>): ModuleRecord {
    const replacement = this.moduleOverrides.get(declared);
    if (replacement !== undefined) this.usedOverrides.add(declared);
    const definition = replacement ?? declared;
    const existing = this.records.get(definition);
    if (existing) return existing;
    if (definition?.kind !== 'module') throw new ModuleGraphError(`Not a module: ${tokenName(definition)}`);
    const record: ModuleRecord = {
      definition,
      name: definition.name,
      imports: [],
      providers: new Map(),
      controllers: definition.controllers.map(toControllerDefinition),
      exported: undefined,
    };
    this.records.set(definition, record);
    visiting.add(definition);
    for (const input of definition.imports) {
      if (input === undefined) {
        throw new ModuleGraphError(`${definition.name} imports undefined; this is usually a circular import between files.`);
      }
      record.imports.push(this.collect(toModuleDefinition(input), visiting));
    }
    visiting.delete(definition);
    for (const input of definition.providers) {
      const provider = this.providerDefinition(input);
      if (record.providers.has(provider.provide)) {
        throw new ModuleGraphError(`${definition.name} provides ${tokenName(provider.provide)} twice.`);
      }
      record.providers.set(provider.provide, { definition: provider, module: record, state: 'new', instance: undefined });
    }
    this.modules.push(record);
    return record;
  }

  private computeExports(record: ModuleRecord, visiting: Set<ModuleRecord>): Map<InjectionToken<unknown>, ProviderRecord> {
    if (record.exported) return record.exported;
    // Modules that import each other may re-export each other; a cycle contributes nothing new.
    if (visiting.has(record)) return new Map();
    visiting.add(record);
    const exported = new Map<InjectionToken<unknown>, ProviderRecord>();
    for (const item of record.definition.exports) {
      const asModule = asModuleDefinition(item);
      if (asModule) {
        const imported = record.imports.find((m) => m.definition === asModule);
        if (!imported) throw new ModuleGraphError(`${record.name} exports module ${asModule.name} without importing it.`);
        for (const [token, provider] of this.computeExports(imported, visiting)) exported.set(token, provider);
        continue;
      }
      const token = item as InjectionToken<unknown>;
      const own = record.providers.get(token);
      const viaImport = own ? undefined : record.imports.map((m) => this.computeExports(m, visiting).get(token)).find(Boolean);
      const provider = own ?? viaImport;
      if (!provider) {
        throw new ModuleGraphError(`${record.name} exports ${tokenName(token)}, which it neither provides nor re-exports from an import.`);
      }
      exported.set(token, provider);
    }
    visiting.delete(record);
    record.exported = exported;
    return exported;
  }
}

function asModuleDefinition(value: unknown): ModuleDefinition | undefined {
  if (hasDefinition(value)) {
    const definition = value[DEFINITION]();
    return (definition as { kind?: unknown }).kind === 'module' ? (definition as ModuleDefinition) : undefined;
  }
  return (value as { kind?: unknown } | null)?.kind === 'module' ? (value as ModuleDefinition) : undefined;
}

/**
 * A module definition from a definition or a decorated module class.
 *
 * @example
 * toModuleDefinition(AppModule).name; // 'AppModule'
 */
export function toModuleDefinition(input: ModuleInput): ModuleDefinition {
  const definition = asModuleDefinition(input);
  if (!definition) throw new ModuleGraphError(`Not a module: ${tokenName(input)}. Use defineModule(...) or @Module(...).`);
  return definition;
}

/**
 * A controller definition from a definition or a decorated controller class.
 *
 * @example
 * toControllerDefinition(PostsController).prefix; // '/posts'
 */
export function toControllerDefinition(input: ControllerInput): ControllerDefinition {
  const definition = hasDefinition(input) ? input[DEFINITION]() : input;
  if ((definition as { kind?: unknown } | null)?.kind !== 'controller') {
    throw new ModuleGraphError(`Not a controller: ${tokenName(input)}. Use defineController(...) or @Controller(...).`);
  }
  return definition as ControllerDefinition;
}
