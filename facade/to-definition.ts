import type { ModuleDefinition } from '../lib/index.js';
import { DEFINITION } from '../lib/internal/definitions.js';
import type { ClassProviderDefinition } from '../lib/index.js';
import { hasDefinition } from '../lib/internal/definitions.js';

function definitionOf(cls: object, kind: string, decorator: string): unknown {
  if (!hasDefinition(cls)) throw new TypeError(`${(cls as { name?: string }).name ?? 'value'} has no @${decorator}() decorator.`);
  const definition = cls[DEFINITION]();
  if ((definition as { kind?: unknown }).kind !== kind) throw new TypeError(`${(cls as { name?: string }).name} is not decorated with @${decorator}().`);
  return definition;
}

/**
 * The ModuleDefinition of a `@Module` class: exactly what `defineModule` returns.
 *
 * @example
 * moduleFromClass(BlogModule).controllers; // [PostsController]
 */
export function moduleFromClass(cls: object): ModuleDefinition {
  return definitionOf(cls, 'module', 'Module') as ModuleDefinition;
}

/**
 * The provider definition of an `@Injectable` class, with its resolved dependencies.
 *
 * @example
 * providerFromClass(PostsService).inject; // [PostsStore]
 */
export function providerFromClass(cls: object): ClassProviderDefinition {
  return definitionOf(cls, 'class', 'Injectable') as ClassProviderDefinition;
}
