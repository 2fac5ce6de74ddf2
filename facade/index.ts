// The class-style facade, `tessera-http/facade`. Decorators only record; the functions below turn a
// decorated class into the very definitions `defineModule` and `defineController` return.
export { Injectable, Inject, resolveConstructorDeps } from './injectable.js';
export { Module, type ModuleDecoratorOptions } from './module-decorator.js';
export { Controller, controllerFromClass } from './controller-decorator.js';
export { Get, Post, Put, Patch, Delete, Ws, HttpCode, Returns, BodyLimit } from './route-decorators.js';
export { Param, Body, Query, Ctx } from './param-decorators.js';
export { UseGuards, UseInterceptors, SetMetadata } from './use-decorators.js';
export { moduleFromClass, providerFromClass } from './to-definition.js';
export { Job, type JobDecoratorOptions } from './job-decorator.js';
