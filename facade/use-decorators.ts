import type { GuardToken, InterceptorToken, MetadataKey, MetadataEntry } from '../lib/index.js';
import { classRecord, methodRecord } from './class-store.js';

type ClassOrMethodDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void;

/**
 * Guards for a controller (every route) or one route; they run after app-wide guards,
 * controller guards before route guards, each list in the order written.
 *
 * @example
 * @Controller('admin') @UseGuards(AuthGuard) class AdminController {}
 */
export function UseGuards(...guards: GuardToken[]): ClassOrMethodDecorator {
  return (target, propertyKey) => {
    const list = propertyKey === undefined ? classRecord(target).guards : methodRecord(target, propertyKey).guards;
    // Decorators apply bottom-up; prepend so that stacked @UseGuards read top to bottom.
    list.unshift(...guards);
  };
}

/**
 * Interceptors for a controller or one route, outermost first.
 *
 * @example
 * @Get() @UseInterceptors(Envelope) list() { return this.store.list(); }
 */
export function UseInterceptors(...interceptors: InterceptorToken[]): ClassOrMethodDecorator {
  return (target, propertyKey) => {
    const list = propertyKey === undefined ? classRecord(target).interceptors : methodRecord(target, propertyKey).interceptors;
    list.unshift(...interceptors);
  };
}

/**
 * Attaches a metadata entry to a controller or route. Entries made by `key.with(value)` (and
 * helpers such as `Roles(...)`) are decorators already; this spells it out.
 *
 * @example
 * @SetMetadata(CACHE_TTL, 60) @Get() list() {}
 */
export function SetMetadata<T>(key: MetadataKey<T>, value: T): MetadataEntry<T> {
  return key.with(value);
}
