import { tokenName, type InjectionToken } from '../di/token.js';
import { CircularDependencyError, MissingProviderError, ModuleGraphError, ProviderBuildError } from '../di/di-errors.js';
import type { ModuleInput } from './module.js';
import type { ProviderInput } from '../di/provider.js';
import { ConfigError } from '../config/config-error.js';
import { ModuleGraph, type GraphOverrides, type ModuleRecord, type ProviderRecord } from './module-graph.js';

export type { GraphOverrides, ModuleRecord } from './module-graph.js';

/**
 * Builds the providers of a module graph as singletons, in dependency order, and hands them out
 * as seen from a module (the graph decides visibility; see ModuleGraph).
 *
 * @example
 * const container = new Container(AppModule);
 * const store = await container.resolve(container.root, PostsStore, 'main');
 */
export class Container {
  readonly graph: ModuleGraph;
  /** Instances in the order they were built; lifecycle hooks follow it. */
  readonly instances: unknown[] = [];
  private readonly implicit = new Map<ModuleRecord, Map<InjectionToken<unknown>, ProviderRecord>>();

  /** `builtIns`: providers every module sees without importing them (the app's own; see ModuleGraph). */
  constructor(root: ModuleInput, overrides: GraphOverrides = {}, builtIns: readonly ProviderInput[] = []) {
    this.graph = new ModuleGraph(root, overrides, builtIns);
  }

  get root(): ModuleRecord {
    return this.graph.root;
  }

  /** Modules in initialization order: every module after the modules it imports. */
  get modules(): readonly ModuleRecord[] {
    return this.graph.modules;
  }

  /** See ModuleGraph.unusedOverrides. */
  unusedOverrides(): string[] {
    return this.graph.unusedOverrides();
  }

  /** Resolves a token as seen from a module, building it (and its dependencies) if needed. */
  async resolve<T>(module: ModuleRecord, token: InjectionToken<T>, requestedBy: string, chain: string[] = []): Promise<T> {
    const record = this.graph.find(module, token, requestedBy);
    return (await this.build(record, [...chain, requestedBy])) as T;
  }

  /**
   * Resolves a guard or interceptor class that no module registered as a provider: it is built
   * like a provider of `module` (Nest does the same), once per module.
   */
  async resolveOrConstruct<T>(module: ModuleRecord, token: InjectionToken<T>, requestedBy: string): Promise<T> {
    // Only a class nobody provides is built on the spot; one provided elsewhere but not visible
    // here is a wiring mistake that the visibility error explains.
    const providedSomewhere = this.graph.providedSomewhere(token);
    if (this.graph.findVisible(module, token) !== undefined || providedSomewhere || typeof token !== 'function') {
      return this.resolve(module, token, requestedBy);
    }
    let local = this.implicit.get(module);
    if (!local) this.implicit.set(module, (local = new Map()));
    let record = local.get(token);
    if (!record) {
      record = this.graph.implicitRecord(module, token);
      local.set(token, record);
    }
    return (await this.build(record, [requestedBy])) as T;
  }

  /**
   * A provider that is already built, resolved as seen from `module`, else the first module's
   * that provides it; a class that a module declared under another token
   * (`{ provide: TOKEN, useClass }`); or a controller (a class controller's instance, a
   * `defineController` controller's routes) once the app has compiled its routes.
   */
  get<T>(module: ModuleRecord, token: InjectionToken<T>, requestedBy: string): T {
    const record =
      this.graph.findVisible(module, token) ??
      this.modules.find((m) => m.providers.has(token))?.providers.get(token) ??
      this.graph.declaredWithClass(token);
    if (record === undefined) {
      const controller = this.graph.controllerSetup(token);
      if (controller !== undefined) return (controller.instance ?? controller.routes) as T;
      throw new MissingProviderError(token, requestedBy, module.name);
    }
    if (record.state !== 'built') {
      // After boot only what nothing depends on is left unbuilt: a default (a configuration) nobody injects.
      throw new ModuleGraphError(`${tokenName(token)} is not built: nothing in the app injects it. Inject it somewhere, or read it without the app (a configuration's load()).`);
    }
    return record.instance as T;
  }

  /** Builds every provider of every module, in module order, after the configurations they ask for. */
  async buildAll(): Promise<void> {
    // The configurations first, each whatever the others did: a wrong environment is told whole, in one error.
    const invalid: ConfigError[] = [];
    for (const record of this.graph.defaultsAskedFor()) {
      try {
        await this.build(record, []);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        invalid.push(error);
      }
    }
    if (invalid.length > 0) throw ConfigError.combine(invalid);
    for (const module of this.modules) {
      for (const record of module.providers.values()) await this.build(record, []);
    }
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
        record.instance = await this.build(this.graph.find(record.module, definition.useExisting, name), [...chain, name]);
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
        const depRecord = this.graph.find(record.module, dep, name);
        deps.push(await this.build(depRecord, here));
      }
      record.instance =
        definition.kind === 'class'
          ? new definition.useClass(...(deps as never[]))
          : await definition.useFactory(...(deps as never[]));
    } catch (error) {
      record.state = 'new';
      // A TypeError is a wiring mistake, and a bare one would not say which provider it came from.
      throw error instanceof TypeError ? new ProviderBuildError(describeProvider(record), error) : error;
    }
    record.state = 'built';
    this.instances.push(record.instance);
    return record.instance;
  }
}

/** `Class (provided as TOKEN in Module)`, or `TOKEN (a factory in Module)`: what a build error names. */
function describeProvider(record: ProviderRecord): string {
  const definition = record.definition;
  const token = tokenName(definition.provide);
  if (definition.kind !== 'class') return `${token} (a ${definition.kind} provider in ${record.module.name})`;
  const cls = tokenName(definition.useClass);
  return cls === token ? `${cls} (in ${record.module.name})` : `${cls} (provided as ${token} in ${record.module.name})`;
}
