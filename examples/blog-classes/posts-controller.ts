import type { z } from 'zod';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Returns } from '../../facade/index.js';
import { CreatePost, Post as PostSchema, PostList, UpdatePost } from '../blog/post-schemas.js';
import { POST_DELETED, POST_NOT_FOUND } from '../blog/openapi.js';
import { PostsService } from './posts-service.js';

/** The blog's CRUD routes, class style. `PostsService` is injected by its constructor type. */
@Controller('posts')
export class PostsController {
  constructor(private readonly posts: PostsService) {}

  @Get()
  @Returns(PostList)
  list() {
    return this.posts.list();
  }

  @Get(':id')
  @Returns(PostSchema)
  @POST_NOT_FOUND
  get(@Param('id') id: string) {
    return this.posts.get(id);
  }

  @Post()
  @HttpCode(201)
  @Returns(PostSchema)
  create(@Body(CreatePost) input: z.output<typeof CreatePost>) {
    return this.posts.create(input);
  }

  @Patch(':id')
  @Returns(PostSchema)
  @POST_NOT_FOUND
  update(@Param('id') id: string, @Body(UpdatePost) changes: z.output<typeof UpdatePost>) {
    return this.posts.update(id, changes);
  }

  @Delete(':id')
  @POST_DELETED
  @POST_NOT_FOUND
  remove(@Param('id') id: string): void {
    this.posts.remove(id);
  }
}
