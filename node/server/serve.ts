/**
 * The local server of the browser fallback (and of the browser e2e tests): the built renderer,
 * with the app's CSP, plus the two calls the renderer's web host makes —
 *   GET /api/initial-items                       → ChosenItem[] for the command-line paths
 *   GET /api/files/<token>?offset=N&length=M     → those bytes of a file named there
 *   GET /api/stream/<token>                      → the whole file, streamed (the import worker
 *                                                  reads it as it arrives)
 *   GET /api/parsed/<token>?threads=all          → the file parsed here, as progress lines and a
 *                                                  profile block (shared/workspace/parsed-profile),
 *                                                  where the server has a parser
 * and nothing else: no directory listings, no paths outside the renderer folder, no other files
 * than the ones named on the command line, loopback only, and a Host check so that a web page
 * using DNS rebinding cannot read them either.
 *
 * Loopback is open to every account on the machine, so every path starts with a secret:
 * `http://127.0.0.1:PORT/<secret>/…`. The address `npm start` opens or prints carries it; the
 * page's own requests (scripts, workers, the API) are relative, so they carry it too. A request
 * without it gets 403, and the comparison takes the same time whatever the guess.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChosenItem, MAX_CHUNK } from '../../shared/ipc/contract';
import { InvalidArgumentError, UnknownTokenError, createFileRegistry } from '../host/files';
import { COMMON_HEADERS, findStaticFile } from '../host/static-files';
import { namedAsReadInWindow } from '../../shared/import/read-in-window';
import { MAX_RUNS, groupSources } from '../../shared/runs/group-sources';
import { isWorkspaceFileName } from '../../shared/workspace/workspace-name';
import { type AheadItem, type ParsesAhead, parsesAhead } from './parse-ahead';
import { type ParseEvent, answerBytes } from './parse-file';
import type { FileParser } from './parse-pool';
import { serveRecord } from './record-route';
import { send } from './reply';

export interface ServerOptions {
  /** files and folders to offer as the initial items (already resolved; empty for none) */
  items: readonly string[];
  /** 0 or omitted: any free port */
  port?: number;
  /** where `port` is taken, listen on any free port instead of failing */
  anyPortIfTaken?: boolean;
  /** a loopback address; anything else is refused */
  host?: string;
  /** the built renderer (out/renderer) */
  rendererDir: string;
  /**
   * the secret every request's path must start with (letters, digits, `-`, `_`; at least 16);
   * a new random one when omitted
   */
  secret?: string;
  /**
   * parses files for the window (`/api/parsed/`), closed with the server; without one, the
   * window reads every file itself
   */
  parser?: FileParser;
}

export interface RunningServer {
  /** the address to open, secret included, ending in `/` */
  url: string;
  /**
   * starts parsing the files named on the command line now, as the page's first request does
   * (./parse-ahead): for a caller about to start a browser on the address
   */
  parseAhead(): void;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const SECRET_SHAPE = /^[A-Za-z0-9_-]{16,256}$/;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`the Flamelens server only listens on loopback, not on ${host}`);
  const rendererDir = await realpath(opts.rendererDir).catch(() => {
    throw new Error(`the renderer is not built (${opts.rendererDir} is missing); run \`npm run build\``);
  });
  const secret = opts.secret ?? randomBytes(24).toString('base64url');
  if (!SECRET_SHAPE.test(secret)) throw new Error('the server secret must be at least 16 letters, digits, - or _');
  const registry = createFileRegistry();
  const { items, errors } = await registry.chooseAll(opts.items);
  if (errors.length > 0) throw new Error(errors.join('; '));

  const ahead = opts.parser ? parsesAhead(opts.parser, aheadItems(items, registry)) : undefined;
  let port = 0;
  const server = createServer((req, res) => {
    handle(req, res, { rendererDir, items, registry, port, secret: Buffer.from(secret), parser: opts.parser, ahead }).catch(
      (err: unknown) => {
        if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error');
        else res.destroy();
        console.error(`flamelens server: ${(err as Error).message}`);
      },
    );
  });
  await listen(server, opts.port ?? 0, host).catch((e: unknown) => {
    if (opts.anyPortIfTaken && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') return listen(server, 0, host);
    throw e;
  });
  port = (server.address() as AddressInfo).port;
  const urlHost = host === '::1' ? '[::1]' : host;
  return {
    url: `http://${urlHost}:${port}/${secret}/`,
    parseAhead: () => ahead?.start(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        ahead?.close();
      }).then(() => opts.parser?.close()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

interface Context {
  rendererDir: string;
  items: ChosenItem[];
  registry: ReturnType<typeof createFileRegistry>;
  port: number;
  secret: Buffer;
  parser: FileParser | undefined;
  ahead: ParsesAhead | undefined;
}

/**
 * The files to parse while the window starts (./parse-ahead): those of the runs the window opens
 * first (renderer/src/import/initial-imports) that it asks the server for, each a run of its own
 * (not a 0x output's file or one thread's profile of several), asked for as a file shown is.
 * None where a workspace file is named: the window opens only that.
 */
function aheadItems(items: readonly ChosenItem[], registry: Context['registry']): AheadItem[] {
  const files = items.flatMap((item) =>
    item.kind === 'file' ? [{ name: item.file.name, path: registry.pathOf(item.file.token), token: item.file.token }] : [],
  );
  if (files.some((f) => isWorkspaceFileName(f.name))) return [];
  // Each folder is one run at least: the runs before MAX_RUNS are the first items' at most.
  const firstRuns = groupSources(files).slice(0, Math.max(0, MAX_RUNS - (items.length - files.length)));
  return firstRuns.flatMap((g) =>
    g.kind === 'single' && !namedAsReadInWindow(g.item.name)
      ? [{ token: g.item.token, request: { path: g.item.path, keepThreads: true } }]
      : [],
  );
}

/** Whether the path's first segment is the secret, compared in constant time. */
export function secretMatches(firstSegment: string, secret: Buffer): boolean {
  const given = Buffer.from(firstSegment);
  // Compared with itself when the length differs, so the time taken says nothing of the secret.
  return timingSafeEqual(given.length === secret.length ? given : secret, secret) && given.length === secret.length;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (!hostAllowed(req.headers.host, ctx.port)) return send(res, 421, 'text/plain; charset=utf-8', 'wrong host');
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    res.setHeader('Allow', 'GET, HEAD, POST');
    return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
  }
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return send(res, 400, 'text/plain; charset=utf-8', 'bad request');
  }
  // `/<secret>/rest`: the rest is what is served; `/<secret>` alone goes to `/<secret>/`.
  const slash = url.pathname.indexOf('/', 1);
  const first = url.pathname.slice(1, slash < 0 ? undefined : slash);
  if (!secretMatches(first, ctx.secret))
    return send(res, 403, 'text/plain; charset=utf-8', 'forbidden: open the address Flamelens printed');
  if (slash < 0) {
    res.writeHead(308, { ...COMMON_HEADERS, Location: `/${first}/`, 'Content-Length': 0, 'Cache-Control': 'no-store' });
    return void res.end();
  }
  const path = url.pathname.slice(slash);
  if ((req.method === 'POST') !== (path === '/api/record')) {
    res.setHeader('Allow', path === '/api/record' ? 'POST' : 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
  }
  if (path === '/api/record')
    return serveRecord(req, res, {
      originAllowed: (origin) => hostAllowed(origin.replace(/^https?:\/\//, ''), ctx.port),
      choose: async (file) => (await ctx.registry.chooseAll([file])).items[0] ?? null,
    });
  if (path === '/api/initial-items') {
    return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(ctx.items), req.method === 'HEAD');
  }
  if (path.startsWith('/api/files/')) return serveChunk(req, res, ctx, path.slice('/api/files/'.length), url);
  if (path.startsWith('/api/stream/')) return serveStream(req, res, ctx, path.slice('/api/stream/'.length));
  if (path.startsWith('/api/parsed/') && ctx.parser) return serveParsed(req, res, ctx, ctx.parser, path.slice('/api/parsed/'.length), url);
  if (path.startsWith('/api/')) return send(res, 404, 'text/plain; charset=utf-8', 'not found');
  return serveStatic(req, res, ctx, path);
}

/** Only `127.0.0.1:PORT`, `localhost:PORT` and `[::1]:PORT`: a rebinding domain gets nothing. */
export function hostAllowed(header: string | undefined, port: number): boolean {
  if (!header) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(header.toLowerCase());
}

async function serveChunk(req: IncomingMessage, res: ServerResponse, ctx: Context, rawToken: string, url: URL): Promise<void> {
  let token: string;
  try {
    token = decodeURIComponent(rawToken);
  } catch {
    return send(res, 404, 'text/plain; charset=utf-8', 'unknown file');
  }
  try {
    const bytes = await ctx.registry.readChunk(token, queryInt(url, 'offset', 0), queryInt(url, 'length', MAX_CHUNK));
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'Content-Type': 'application/octet-stream',
      'Content-Length': bytes.byteLength,
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  } catch (err) {
    if (err instanceof UnknownTokenError) return send(res, 404, 'text/plain; charset=utf-8', 'unknown file');
    if (err instanceof InvalidArgumentError) return send(res, 400, 'text/plain; charset=utf-8', err.message);
    throw err;
  }
}

async function serveStream(req: IncomingMessage, res: ServerResponse, ctx: Context, rawToken: string): Promise<void> {
  let token: string;
  try {
    token = decodeURIComponent(rawToken);
  } catch {
    return send(res, 404, 'text/plain; charset=utf-8', 'unknown file');
  }
  let opened: Awaited<ReturnType<Context['registry']['openStream']>>;
  try {
    opened = await ctx.registry.openStream(token);
  } catch (err) {
    if (err instanceof UnknownTokenError) return send(res, 404, 'text/plain; charset=utf-8', 'unknown file');
    throw err;
  }
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'application/octet-stream',
    'Content-Length': opened.size,
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') {
    opened.stream.destroy();
    return void res.end();
  }
  await new Promise<void>((resolve) => {
    // A file that fails or shrinks while it is sent ends the response short of its length:
    // the reader sees a network error, never a silently shorter file.
    opened.stream.on('error', () => res.destroy());
    res.on('close', () => {
      opened.stream.destroy();
      resolve();
    });
    opened.stream.pipe(res);
  });
}

/**
 * The file parsed by `parser`, streamed as it goes: progress lines, then the profile block, the
 * import's error, or why it was not parsed here. A window that goes away stops the parse.
 */
async function serveParsed(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: Context,
  parser: FileParser,
  rawToken: string,
  url: URL,
): Promise<void> {
  let path: string;
  let token: string;
  try {
    token = decodeURIComponent(rawToken);
    path = ctx.registry.pathOf(token);
  } catch {
    return send(res, 404, 'text/plain; charset=utf-8', 'unknown file');
  }
  res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
  if (req.method === 'HEAD') return void res.end();
  const request = { path, keepThreads: url.searchParams.get('threads') === 'all' };
  const onEvent = (e: ParseEvent) => {
    for (const bytes of answerBytes(e)) res.write(bytes);
    if (e.type !== 'progress') res.end();
  };
  const job = ctx.ahead?.take(token, request, onEvent) ?? parser.parse(request, onEvent);
  res.on('close', () => job.cancel());
  await job.done;
}

/** A query parameter as a number: only plain decimal digits count; anything else is NaN. */
function queryInt(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  return /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
}

async function serveStatic(req: IncomingMessage, res: ServerResponse, ctx: Context, urlPath: string): Promise<void> {
  const file = await findStaticFile(ctx.rendererDir, urlPath);
  if (file === null) return send(res, 404, 'text/plain; charset=utf-8', 'not found');
  // The page is being opened: the files it will ask for are parsed meanwhile.
  if (file.path.endsWith('.html') && req.method === 'GET') ctx.ahead?.start();
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': file.type,
    'Content-Length': file.size,
    'Cache-Control': file.path.endsWith('.html') ? 'no-store' : 'no-cache',
  });
  if (req.method === 'HEAD') return void res.end();
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(file.path);
    stream.on('error', reject);
    res.on('close', () => resolve());
    stream.pipe(res);
  });
}
