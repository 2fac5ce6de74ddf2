import { TesseraError } from '../common/tessera-error.js';
import { tokenName } from './token.js';

/**
 * Nothing in the module graph provides a token that something depends on.
 *
 * @example
 * try { await createApp(AppModule); } catch (e) { if (e instanceof MissingProviderError) console.error(e.message); }
 */
export class MissingProviderError extends TesseraError {
  constructor(
    readonly token: unknown,
    readonly requestedBy: string,
    readonly moduleName: string,
  ) {
    super(
      'DI_MISSING_PROVIDER',
      `No provider for ${tokenName(token)} (needed by ${requestedBy} in ${moduleName}). ` +
        `Add a provider for ${tokenName(token)} to ${moduleName}, or import a module that provides and exports it.`,
    );
  }
}

/**
 * A token is provided somewhere in the graph, but not where it is needed. The message names the
 * module to import (and whether that module must also export the token).
 *
 * @example
 * // "PostsStore is provided by StorageModule but is not visible in BlogModule ..."
 */
export class ProviderNotVisibleError extends TesseraError {
  constructor(
    readonly token: unknown,
    readonly requestedBy: string,
    readonly moduleName: string,
    readonly providingModules: readonly { readonly name: string; readonly exports: boolean }[],
  ) {
    const hints = providingModules.map((m) =>
      m.exports
        ? `add ${m.name} to the imports of ${moduleName}`
        : `add ${tokenName(token)} to the exports of ${m.name} and add ${m.name} to the imports of ${moduleName}`,
    );
    super(
      'DI_PROVIDER_NOT_VISIBLE',
      `${tokenName(token)} (needed by ${requestedBy}) is provided by ${providingModules.map((m) => m.name).join(', ')} ` +
        `but is not visible in ${moduleName}. To fix it, ${hints.join('; or ')}.`,
    );
  }
}

/**
 * Providers depend on each other in a circle; the message shows the whole chain.
 *
 * @example
 * // "Circular dependency: A -> B -> A"
 */
export class CircularDependencyError extends TesseraError {
  constructor(readonly chain: readonly string[]) {
    super('DI_CIRCULAR_DEPENDENCY', `Circular dependency: ${chain.join(' -> ')}`);
  }
}

/**
 * The module graph itself is wrong: an export of something the module does not have, a
 * malformed module, a bad import.
 *
 * @example
 * // "BlogModule exports PostsStore, which it neither provides nor re-exports from an import."
 */
export class ModuleGraphError extends TesseraError {
  constructor(message: string) {
    super('DI_MODULE_GRAPH', message);
  }
}

/**
 * Something listed as a provider is not one (a class without metadata or dependency list, an
 * object of none of the provider shapes). Code `DI_PROVIDER_INVALID`.
 *
 * @example
 * new ProviderDefinitionError('Not a provider: 42');
 */
export class ProviderDefinitionError extends TesseraError {
  constructor(message: string) {
    super('DI_PROVIDER_INVALID', message);
  }
}

/**
 * Building a provider threw a TypeError: a programming error, most often a dependency of the
 * wrong shape (a store given something that is not the client it needs). The message names the
 * provider (its class, the token it is provided as, its module) and the cause's message; the
 * TypeError itself is the `cause`. Code `DI_PROVIDER_BUILD`.
 *
 * @example
 * // "PostgresRefreshTokenStore (provided as RefreshTokenStore in AuthModule) could not be built: The refresh-token store was given ..."
 */
export class ProviderBuildError extends TesseraError {
  constructor(
    readonly provider: string,
    cause: TypeError,
  ) {
    super('DI_PROVIDER_BUILD', `${provider} could not be built: ${cause.message}`, { cause });
  }
}
