import { tokenName, type ClassToken, type InjectionToken } from '../di/token.js';
import { MissingProviderError, ModuleGraphError, ProviderNotVisibleError } from '../di/di-errors.js';
import { normalizeProvider, type ProviderDefinition, type ProviderInput } from '../di/provider.js';
import { defaultProviderOf } from '../di/default-provider.js';
import type { ControllerDefinition, ControllerInput, ControllerSetup } from '../routing/controller.js';
import type { ModuleDefinition, ModuleInput } from './module.js';
import { asModuleDefinition, toControllerDefinition, toModuleDefinition } from './module-definitions.js';

/** One provider inside one module, and its instance once built. */
export interface ProviderRecord {
  readonly definition: ProviderDefinition;
  /** The class the module declared it with (`{ provide: TOKEN, useClass }` included), before any override. */
  readonly declaredClass: ClassToken<unknown> | undefined;
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
 * A class also names the providers that build it under another token: forRoot-style modules
 * register what they are given as `{ provide: THEIR_TOKEN, useClass: GivenClass }`, and the test
 * knows the class, not the module's token. Each declaration is replaced once, so the app keeps
 * the instance count it declared.
 *
 * @example
 * new Container(AppModule, { providers: new Map([[PostsStore, { provide: PostsStore, useValue: fake }]]) });
 */
export interface GraphOverrides {
  /** Token (or class) -> the provider that replaces every declaration of it (its `provide` is the token). */
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
  private readonly controllerSetups = new Map<unknown, ControllerSetup>();
  /** Tokens no module provides, served by the provider they carry (see DEFAULT_PROVIDER), app-wide. */
  private readonly defaults = new Map<InjectionToken<unknown>, ProviderRecord>();

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
      const record = this.providerRecord(input, this.root);
      this.builtIns.set(record.definition.provide, record);
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
    return this.providerRecord(token as ProviderInput, module);
  }

  /**
   * A provider declared with `token` as its class, in any module, when no module provides
   * `token` itself: the store class a forRoot-style module registered under its own token.
   */
  declaredWithClass(token: InjectionToken<unknown>): ProviderRecord | undefined {
    if (typeof token !== 'function') return undefined;
    for (const module of this.modules) {
      for (const record of module.providers.values()) if (record.declaredClass === token) return record;
    }
    return undefined;
  }

  /**
   * What a controller's setup returned (its routes, and the instance of a class controller), by
   * the controller as a module listed it; undefined before the app compiled its routes or for a
   * value that is no controller of the graph.
   */
  controllerSetup(controller: unknown): ControllerSetup | undefined {
    return this.controllerSetups.get(controller);
  }

  /**
   * The default-provided tokens (the configurations) that declared providers and controllers ask
   * for, directly or through another default, found before anything is built.
   */
  defaultsAskedFor(): ProviderRecord[] {
    const found = new Set<ProviderRecord>();
    const visit = (tokens: readonly InjectionToken<unknown>[]) => {
      for (const token of tokens) {
        const record = this.defaultRecord(token);
        if (record === undefined || found.has(record)) continue;
        found.add(record);
        visit(dependenciesOf(record.definition));
      }
    };
    for (const module of this.modules) {
      for (const record of module.providers.values()) visit(dependenciesOf(record.definition));
      for (const controller of module.controllers) visit(controller.inject);
    }
    return [...found];
  }

  /** The provider `token` names as seen from `module`, if one is visible there. */
  findVisible(module: ModuleRecord, token: InjectionToken<unknown>): ProviderRecord | undefined {
    const own = module.providers.get(token);
    if (own) return own;
    for (const imported of module.imports) {
      const found = imported.exported?.get(token);
      if (found) return found;
    }
    return this.globalExports.get(token) ?? this.builtIns.get(token) ?? this.defaultRecord(token);
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

  /** The app-wide record of a token's default provider, when no module (nor the app) provides the token. */
  private defaultRecord(token: InjectionToken<unknown>): ProviderRecord | undefined {
    const known = this.defaults.get(token);
    if (known !== undefined) return known;
    const input = defaultProviderOf(token);
    if (input === undefined || this.builtIns.has(token) || this.providedSomewhere(token)) return undefined;
    // Created when first asked for, as a dependency is built: still at boot, before any request.
    const record = this.providerRecord(input, this.root);
    this.defaults.set(token, record);
    return record;
  }

  /** The record of a declaration in `module`, with its override applied (by its token, else by its class). */
  private providerRecord(input: ProviderInput, module: ModuleRecord): ProviderRecord {
    const declared = normalizeProvider(input);
    const declaredClass = declared.kind === 'class' ? declared.useClass : undefined;
    return { definition: this.overridden(declared), declaredClass, module, state: 'new', instance: undefined };
  }

  private overridden(declared: ProviderDefinition): ProviderDefinition {
    const override = this.providerOverrides.get(declared.provide);
    if (override !== undefined) {
      this.usedOverrides.add(declared.provide);
      return normalizeProvider(override);
    }
    if (declared.kind !== 'class' || declared.useClass === declared.provide) return declared;
    const byClass = this.providerOverrides.get(declared.useClass);
    if (byClass === undefined) return declared;
    this.usedOverrides.add(declared.useClass);
    // The replacement answers under the declaration's own token, so its dependents are unchanged.
    return Object.freeze({ ...normalizeProvider(byClass), provide: declared.provide });
  }

  /** The controller's definition, whose setup is recorded for `app.get(controller)`. */
  private controllerDefinition(input: ControllerInput): ControllerDefinition {
    const definition = toControllerDefinition(input);
    const setups = this.controllerSetups;
    return Object.freeze({
      ...definition,
      setup: (...deps: never[]) => {
        const setup = definition.setup(...deps);
        // Keyed by what a test holds: the class or object the module listed.
        if (!setups.has(input)) setups.set(input, setup);
        return setup;
      },
    });
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
      controllers: definition.controllers.map((input) => this.controllerDefinition(input)),
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
      const provider = this.providerRecord(input, record);
      const token = provider.definition.provide;
      if (record.providers.has(token)) throw new ModuleGraphError(`${definition.name} provides ${tokenName(token)} twice.`);
      record.providers.set(token, provider);
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

/** The tokens a provider asks for. */
function dependenciesOf(definition: ProviderDefinition): readonly InjectionToken<unknown>[] {
  if (definition.kind === 'existing') return [definition.useExisting];
  return definition.kind === 'value' ? [] : definition.inject;
}
