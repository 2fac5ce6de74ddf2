import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** What a test client saw of one connection: the messages in order and how it ended. */
export interface SocketRecord {
  readonly ws: WebSocket;
  readonly messages: (string | Uint8Array)[];
  /** The close code and reason the client received (1006: the connection dropped without one). */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the next message (waiting for it when none is queued). */
  next(): Promise<string | Uint8Array>;
}

/**
 * Opens a `ws` client and records what arrives; rejects with the HTTP status when the server
 * refuses the upgrade.
 *
 * @example
 * const client = await openSocket(`${server.url.replace('http', 'ws')}/live`);
 */
export function openSocket(url: string, options: { protocols?: string[]; headers?: Record<string, string> } = {}): Promise<SocketRecord> {
  const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
  const messages: (string | Uint8Array)[] = [];
  let read = 0;
  const waiting: ((m: string | Uint8Array) => void)[] = [];
  ws.on('message', (data, isBinary) => {
    const message = isBinary ? new Uint8Array(data as Buffer) : (data as Buffer).toString();
    messages.push(message);
    const waiter = waiting.shift();
    if (waiter !== undefined) {
      read++;
      waiter(message);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return new Promise((resolve, reject) => {
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        next: () => (read < messages.length ? Promise.resolve(messages[read++] as string | Uint8Array) : new Promise((r) => waiting.push(r))),
      }),
    );
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, body, headers: res.headers })));
    });
    ws.once('error', reject);
  });
}

/**
 * A hand-driven client for what `ws` refuses to send: fragmented, invalid UTF-8 or unanswered
 * frames. Does the handshake, then writes masked frames as given.
 *
 * @example
 * const raw = await rawWebSocket(port, '/echo');
 * raw.frame(0x1, Buffer.from('{"text":"hi"}'));
 */
export async function rawWebSocket(port: number, path: string): Promise<{ socket: Socket; received: Buffer[]; frame(opcode: number, payload: Buffer, fin?: boolean): void; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const key = randomBytes(16).toString('base64');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const received: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      if (!head.subarray(0, end).toString().startsWith('HTTP/1.1 101')) reject(new Error(`no upgrade: ${head.toString()}`));
      if (head.length > end + 4) received.push(head.subarray(end + 4));
      socket.on('data', (more: Buffer) => received.push(more));
      resolve();
    };
    socket.on('data', onData);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    received,
    closed,
    frame(opcode, payload, fin = true) {
      const mask = randomBytes(4);
      const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
      const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
      socket.write(Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode]), length, mask, masked]));
    },
  };
}

/** The close code in the first close frame (opcode 8) among raw server frames, if any. */
export function closeCodeIn(frames: Buffer[]): number | undefined {
  const all = Buffer.concat(frames);
  let at = 0;
  while (at + 2 <= all.length) {
    const opcode = (all[at] as number) & 0x0f;
    let length = (all[at + 1] as number) & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = all.readUInt16BE(at + 2);
      start += 2;
    } else if (length === 127) {
      length = Number(all.readBigUInt64BE(at + 2));
      start += 8;
    }
    if (opcode === 0x8) return length >= 2 ? all.readUInt16BE(start) : 1005;
    at = start + length;
  }
  return undefined;
}
