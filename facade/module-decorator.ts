import { defineModule, type ModuleOptions } from '../lib/index.js';
import { attachDefinition } from './injectable.js';

/**
 * Options of {@link Module}: those of `defineModule`, with the name defaulting to the class name.
 *
 * @example
 * const options: ModuleDecoratorOptions = { providers: [PostsService], controllers: [PostsController] };
 */
export type ModuleDecoratorOptions = Omit<ModuleOptions, 'name'> & { readonly name?: string };

/**
 * Declares a module class. It produces the same definition `defineModule` does, so class and
 * builder modules import each other freely.
 *
 * @example
 * @Module({ imports: [StorageModule], providers: [PostsService], controllers: [PostsController] })
 * export class BlogModule {}
 */
export function Module(options: ModuleDecoratorOptions = {}): ClassDecorator {
  return (target) => {
    attachDefinition(target, () => defineModule({ ...options, name: options.name ?? target.name }));
  };
}
