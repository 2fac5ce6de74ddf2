import { tokenName, type InjectionToken } from '../common/token.js';
import { MissingProviderError, ModuleGraphError, ProviderNotVisibleError } from '../di/di-errors.js';
import { normalizeProvider, type ProviderDefinition, type ProviderInput } from '../di/provider.js';
import type { ControllerDefinition } from '../routing/controller.js';
import type { ModuleDefinition, ModuleInput } from './module.js';
import { asModuleDefinition, toControllerDefinition, toModuleDefinition } from './module-definitions.js';

/** One provider inside one module, and its instance once built. */
export interface ProviderRecord {
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

/**
 * The module graph as declared, with overrides applied: every module once (in initialization
 * order: each after the modules it imports), its providers, what it exports, and which provider
 * a token names as seen from a module. It builds nothing; the Container does.
 *
 * Visibility: a provider is visible in its own module, in modules that import a module
 * exporting it (exports can pass on an imported module's exports), and everywhere when its
 * module is `global` and exports it.
 *
 * @example
 * const graph = new ModuleGraph(AppModule);
 * graph.find(graph.root, PostsStore, 'main').module.name; // the module that provides it
 */
export class ModuleGraph {
  readonly root: ModuleRecord;
  /** Modules in initialization order: every module after the modules it imports. */
  readonly modules: ModuleRecord[] = [];
  private readonly records = new Map<ModuleDefinition, ModuleRecord>();
  private readonly globalExports = new Map<InjectionToken<unknown>, ProviderRecord>();
  private readonly providerOverrides: ReadonlyMap<InjectionToken<unknown>, ProviderInput>;
  private readonly moduleOverrides = new Map<ModuleDefinition, ModuleDefinition>();
  private readonly usedOverrides = new Set<unknown>();
  /** What the app itself provides to every module (its PubSub, its WebSockets), found after everything else. */
  private readonly builtIns = new Map<InjectionToken<unknown>, ProviderRecord>();

  constructor(root: ModuleInput, overrides: GraphOverrides = {}, builtIns: readonly ProviderInput[] = []) {
    this.providerOverrides = overrides.providers ?? new Map();
    for (const [original, replacement] of overrides.modules ?? []) this.moduleOverrides.set(toModuleDefinition(original), toModuleDefinition(replacement));
    this.root = this.collect(toModuleDefinition(root), new Set());
    for (const record of this.modules) this.computeExports(record, new Set());
    for (const record of this.modules) {
      if (!record.definition.global) continue;
      for (const [token, provider] of record.exported ?? []) this.globalExports.set(token, provider);
    }
    for (const input of builtIns) {
      const definition = this.providerDefinition(input);
      this.builtIns.set(definition.provide, { definition, module: this.root, state: 'new', instance: undefined });
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

  /** Whether any module of the graph declares a provider for `token` (visible here or not). */
  providedSomewhere(token: InjectionToken<unknown>): boolean {
    return this.modules.some((m) => m.providers.has(token));
  }

  /** A new provider record for a class no module declared, owned by `module` (overrides apply). */
  implicitRecord(module: ModuleRecord, token: InjectionToken<unknown>): ProviderRecord {
    return { definition: this.providerDefinition(token as ProviderInput), module, state: 'new', instance: undefined };
  }

  /** The provider `token` names as seen from `module`, if one is visible there. */
  findVisible(module: ModuleRecord, token: InjectionToken<unknown>): ProviderRecord | undefined {
    const own = module.providers.get(token);
    if (own) return own;
    for (const imported of module.imports) {
      const found = imported.exported?.get(token);
      if (found) return found;
    }
    return this.globalExports.get(token) ?? this.builtIns.get(token);
  }

  /** The provider `token` names as seen from `module`; a precise error when none is visible. */
  find(module: ModuleRecord, token: InjectionToken<unknown>, requestedBy: string): ProviderRecord {
    const found = this.findVisible(module, token);
    if (found) return found;
    const providing = this.modules
      .filter((m) => m.providers.has(token))
      .map((m) => ({ name: m.name, exports: m.exported?.has(token) ?? false }));
    if (providing.length > 0) throw new ProviderNotVisibleError(token, requestedBy, module.name, providing);
    throw new MissingProviderError(token, requestedBy, module.name);
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
