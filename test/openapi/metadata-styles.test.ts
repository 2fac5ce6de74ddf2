import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Body, Controller, Delete, Get, HttpCode, Module, Param, Post, Query, Returns } from '../../facade/index.js';
import { createApp, defineController, defineModule, del, get, post } from '../../lib/index.js';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags, generateOpenApiDocument, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';
import { validateDocument } from './document-validation.js';

const Note = z.object({ id: z.string(), text: z.string(), at: z.date() }).meta({ id: 'Note' });
const NewNote = z.object({ text: z.string().min(1) });
const Search = z.object({ q: z.string().optional(), limit: z.coerce.number().int().positive().optional() });

const OPTIONS: OpenApiDocumentOptions = {
  title: 'Notes',
  version: '2.0.0',
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
  security: ['bearer'],
};

/** Builder style: documentation helpers as `metadata` entries. */
function builderModule() {
  const controller = defineController({
    name: 'NotesController',
    prefix: '/notes',
    metadata: [ApiTags('notes'), ApiSecurity('bearer', 'apiKey'), ApiResponse({ status: 401 })],
    routes: () => ({
      search: get('/', { query: Search, response: z.array(Note), metadata: [ApiOperation({ summary: 'Search notes', operationId: 'searchNotes' })] }, () => []),
      show: get(
        '/:id',
        { response: Note, metadata: [ApiOperation({ summary: 'One note', description: 'By id.' }), ApiResponse({ status: 404, description: 'No such note' })] },
        () => undefined,
      ),
      create: post('/', { body: NewNote, response: Note, status: 201, metadata: [ApiTags('write'), ApiSecurity({ bearer: [] })] }, () => undefined),
      remove: del(
        '/:id',
        { status: 204, metadata: [ApiOperation({ deprecated: true }), ApiResponse({ status: 204, description: 'Deleted' }), ApiResponse({ status: 404 })] },
        () => undefined,
      ),
      health: get('/health', { metadata: [ApiSecurity(false)] }, () => ({ ok: true })),
    }),
  });
  return defineModule({ name: 'NotesModule', controllers: [controller] });
}

/** Class style: the very same helpers applied as decorators. */
function classModule() {
  @ApiTags('notes')
  @ApiSecurity('bearer', 'apiKey')
  @ApiResponse({ status: 401 })
  @Controller('notes')
  class NotesController {
    @ApiOperation({ summary: 'Search notes', operationId: 'searchNotes' })
    @Get()
    @Returns(z.array(Note))
    search(@Query(Search) _query: z.output<typeof Search>) {
      return [];
    }

    @ApiOperation({ summary: 'One note', description: 'By id.' })
    @ApiResponse({ status: 404, description: 'No such note' })
    @Get(':id')
    @Returns(Note)
    show(@Param('id') _id: string) {
      return null;
    }

    @ApiTags('write')
    @ApiSecurity({ bearer: [] })
    @Post()
    @HttpCode(201)
    @Returns(Note)
    create(@Body(NewNote) _input: z.output<typeof NewNote>) {
      return null;
    }

    @ApiOperation({ deprecated: true })
    @ApiResponse({ status: 204, description: 'Deleted' })
    @ApiResponse({ status: 404 })
    @Delete(':id')
    @HttpCode(204)
    remove(@Param('id') _id: string): void {}

    @ApiSecurity(false)
    @Get('health')
    health() {
      return { ok: true };
    }
  }
  @Module({ controllers: [NotesController] })
  class NotesModule {}
  return NotesModule;
}

describe('documentation metadata in both styles', () => {
  it('builder options and decorators give the same document', async () => {
    const fromBuilder = generateOpenApiDocument(await createApp(builderModule()), OPTIONS);
    const fromClasses = generateOpenApiDocument(await createApp(classModule()), OPTIONS);
    expect(fromClasses).toEqual(fromBuilder);
    expect(await validateDocument(fromBuilder)).toEqual([]);
  });

  it('maps every helper to its document field', async () => {
    const doc = generateOpenApiDocument(await createApp(classModule()), OPTIONS);
    const notes = doc.paths['/notes'];
    const one = doc.paths['/notes/{id}'];
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(notes?.get).toMatchObject({ operationId: 'searchNotes', summary: 'Search notes', tags: ['notes'], security: [{ bearer: [] }, { apiKey: [] }] });
    expect(notes?.get?.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ['q', 'query', false],
      ['limit', 'query', false],
    ]);
    expect(one?.get).toMatchObject({ operationId: 'NotesController_show', summary: 'One note', description: 'By id.' });
    expect(Object.keys(one?.get?.responses ?? {})).toEqual(['200', '401', '404', 'default']);
    expect(one?.get?.responses['404']?.description).toBe('No such note');
    expect(notes?.post).toMatchObject({ tags: ['notes', 'write'], security: [{ bearer: [] }] });
    expect(one?.delete).toMatchObject({ deprecated: true, responses: { '204': { description: 'Deleted' }, '404': { description: 'Not Found' } } });
    expect(doc.paths['/notes/health']?.get?.security).toEqual([]);
    expect(doc.components.schemas.Note).toMatchObject({ properties: { at: { type: 'string', format: 'date-time' } } });
  });
});
