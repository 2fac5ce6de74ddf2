import { DEFINITION, hasDefinition } from '../common/definition-carrier.js';
import { tokenName } from '../di/token.js';
import { ModuleGraphError } from '../di/di-errors.js';
import type { ControllerDefinition, ControllerInput } from '../routing/controller.js';
import type { ModuleDefinition, ModuleInput } from './module.js';

/** The module definition behind a value (a definition or a decorated module class), if it is one. */
export function asModuleDefinition(value: unknown): ModuleDefinition | undefined {
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
