import { defineController, defineModule, get } from '../../lib/index.js';

/** `GET /hello/:name` answers `{ message: 'Hello, <name>!' }`. */
export const greetingController = defineController({
  name: 'GreetingController',
  prefix: '/hello',
  routes: () => ({
    greet: get('/:name', (ctx) => ({ message: `Hello, ${ctx.params.name}!` })),
  }),
});

/** The minimal greeting application of SPEC.md. */
export const GreetingModule = defineModule({ name: 'GreetingModule', controllers: [greetingController] });
