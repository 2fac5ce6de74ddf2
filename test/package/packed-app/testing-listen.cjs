// The CommonJS build, as a `require` user loads it: a testing app listens with no server option,
// answers a real request on its socket, and closes. Prints what it got as JSON.
const { createTestingApp } = require('tessera-http/testing');
const { defineController, defineModule, get } = require('tessera-http');

const hello = defineController({ name: 'Hello', prefix: '/hello', routes: () => ({ greet: get('/:name', (ctx) => ({ message: `Hello, ${ctx.params.name}!` })) }) });

(async () => {
  const app = await createTestingApp(defineModule({ name: 'AppModule', controllers: [hello] })).compile();
  const server = await app.listen(0);
  const res = await fetch(`${server.url}/hello/Ada`);
  console.log(JSON.stringify({ status: res.status, body: await res.json() }));
  await server.close();
  await app.close();
})().catch((error) => {
  console.error(error.code ?? error);
  process.exit(1);
});
