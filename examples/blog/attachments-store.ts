/** A file attached to a post, kept in memory with the post it belongs to. */
export interface Attachment {
  readonly name: string;
  readonly contentType: string;
  readonly bytes: Uint8Array<ArrayBuffer>;
}

/** In-memory attachments by post id and file name. */
export class AttachmentsStore {
  private readonly byPost = new Map<string, Map<string, Attachment>>();

  put(postId: string, attachment: Attachment): void {
    let files = this.byPost.get(postId);
    if (!files) this.byPost.set(postId, (files = new Map()));
    files.set(attachment.name, attachment);
  }

  find(postId: string, name: string): Attachment | undefined {
    return this.byPost.get(postId)?.get(name);
  }
}
