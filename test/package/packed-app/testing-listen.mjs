// The ES module build, as an `import` user loads it: a testing app listens with no server option,
// answers a real request on its socket, and closes. Prints what it got as JSON.
import { createTestingApp } from 'tessera-http/testing';
import { defineController, defineModule, get } from 'tessera-http';

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
