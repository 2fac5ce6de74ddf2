// A user's app, compiled by `tsc --strict` (module/moduleResolution nodenext) against the packed
// and installed package, then run with node: the builder API, the facade, auth and OpenAPI.
import { z } from 'zod';
import { createApp, defineController, defineModule, defineProvider, get, post, NotFoundException } from 'tessera-http';
import { Body, Controller, Get, Injectable, Module, Param } from 'tessera-http/facade';
import { defineAuthModule, Public, Roles } from 'tessera-http/auth';
import { generateOpenApiDocument, serveOpenApi } from 'tessera-http/openapi';

const CreateNote = z.object({ text: z.string().min(1), pinned: z.boolean().default(false) });

class NotesStore {
  private readonly notes = new Map<string, { id: string; text: string; pinned: boolean }>();
  add(input: z.output<typeof CreateNote>) {
    const note = { id: String(this.notes.size + 1), ...input };
    this.notes.set(note.id, note);
    return note;
  }
  find(id: string) {
    const note = this.notes.get(id);
    if (!note) throw new NotFoundException(`Note ${id} not found`);
    return note;
  }
}

const notes = defineController({
  name: 'NotesController',
  prefix: '/notes',
  inject: [NotesStore],
  metadata: [Public()],
  routes: (store) => ({
    create: post('/', { body: CreateNote, status: 201 }, (ctx) => store.add(ctx.body)),
    one: get('/:id', (ctx) => store.find(ctx.params.id)),
  }),
});

@Injectable()
class Greeter {
  greet(name: string): { message: string } {
    return { message: `Hello, ${name}!` };
  }
}

@Controller('hello')
class HelloController {
  constructor(private readonly greeter: Greeter) {}

  @Get(':name')
  @Public()
  hello(@Param('name') name: string) {
    return this.greeter.greet(name);
  }

  @Get('admin/:name')
  @Roles('admin')
  admin(@Param('name') name: string) {
    return this.greeter.greet(name);
  }

  @Get('echo')
  @Public()
  echo(@Body(z.object({ a: z.number() }).optional()) body: { a: number } | undefined) {
    return body ?? null;
  }
}

@Module({ providers: [Greeter], controllers: [HelloController] })
class HelloModule {}

const auth = defineAuthModule(z.object({ sub: z.string(), roles: z.array(z.string()) }));

const AppModule = defineModule({
  name: 'AppModule',
  imports: [HelloModule, auth.AuthModule.forRoot({ secret: 'a-packed-package-test-secret-of-32+bytes', protectAllRoutes: true })],
  providers: [defineProvider(NotesStore, [])],
  controllers: [notes],
});

const app = await createApp(AppModule);
serveOpenApi(app, '/openapi.json', { title: 'Packed', version: '1.0.0' });
const document = generateOpenApiDocument(app, { title: 'Packed', version: '1.0.0' });
// createApp alone: the package's `node` export condition supplies the Node server adapter.
const server = await app.listen(0, '127.0.0.1');
try {
  const created = await fetch(`${server.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
  const hello = await fetch(`${server.url}/hello/packed`);
  const admin = await fetch(`${server.url}/hello/admin/packed`);
  console.log(JSON.stringify({
    created: { status: created.status, body: await created.json() },
    hello: { status: hello.status, body: await hello.json() },
    admin: admin.status,
    paths: Object.keys(document.paths).sort(),
  }));
} finally {
  await server.close();
}
