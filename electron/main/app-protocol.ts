/**
 * The window's page comes from `flamelens://app/`, a privileged scheme of our own, not from
 * file://. A file:// page shares its origin with every file on the disk; this one is an origin of
 * its own, answered only by the handler below, which serves the files of the built renderer and
 * nothing else, each with the CSP header. So the request allow-list (security.ts) can refuse all
 * of file://, and the header CSP provably applies to every page, script and worker of the app.
 * Only Electron *types* are imported: the caller passes `protocol`.
 */
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Protocol } from 'electron';
import { COMMON_HEADERS, findStaticFile } from '../../node/host/static-files';
import { type FileRegistry, UnknownTokenError } from '../../node/host/files';

export const APP_SCHEME = 'flamelens';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** the page the window loads */
export const APP_PAGE_URL = `${APP_ORIGIN}/index.html`;

/**
 * Before the app is ready: a standard (relative URLs, its own origin, storage), secure (a secure
 * context, as https) scheme that fetch and module workers may load and that can stream, with V8's
 * code cache (the app's script is compiled once, not again at every launch). Not `corsEnabled`
 * (other origins may not read it) and not `bypassCSP`.
 */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true } },
  ]);
}

/** True for a URL of the app's own origin, `flamelens://app/…`. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

function refuse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** Where the import worker fetches a chosen file whole: `flamelens://app/api/stream/<token>`. */
const STREAM_PATH = '/api/stream/';

/**
 * A chosen file, whole, as one streamed response (the import worker reads it as it arrives, as
 * from the local server's `/api/stream/`), so that a file named on the command line does not
 * travel through the window a piece at a time. Only tokens the registry issued.
 */
async function streamChosen(files: Pick<FileRegistry, 'openStream'>, rawToken: string, head: boolean): Promise<Response> {
  let token: string;
  try {
    token = decodeURIComponent(rawToken);
  } catch {
    return refuse(404, 'unknown file');
  }
  let opened: Awaited<ReturnType<FileRegistry['openStream']>>;
  try {
    opened = await files.openStream(token);
  } catch (err) {
    if (err instanceof UnknownTokenError) return refuse(404, 'unknown file');
    throw err;
  }
  if (head) opened.stream.destroy();
  const body = head ? null : (Readable.toWeb(opened.stream as Readable) as ReadableStream<Uint8Array>);
  return new Response(body, {
    status: 200,
    headers: {
      ...COMMON_HEADERS,
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(opened.size),
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * The handler for `protocol.handle(APP_SCHEME, …)`: GET and HEAD of `flamelens://app/<path>`
 * for a regular file inside `rendererDir` (a real path), and of `flamelens://app/api/stream/<token>`
 * for a file chosen in `files`; 404 for anything else, 405 for other methods. Every response
 * carries the CSP.
 */
export function createAppProtocolHandler(
  rendererDir: string,
  files?: Pick<FileRegistry, 'openStream'>,
): (request: Request) => Promise<Response> {
  let root: Promise<string> | undefined;
  return async (request) => {
    root ??= realpath(rendererDir).catch(() => resolve(rendererDir));
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'method not allowed');
    if (!isAppUrl(request.url)) return refuse(404, 'not found');
    const path = new URL(request.url).pathname;
    if (path.startsWith(STREAM_PATH))
      return files ? streamChosen(files, path.slice(STREAM_PATH.length), request.method === 'HEAD') : refuse(404, 'not found');
    const file = await findStaticFile(await root, path);
    if (file === null) return refuse(404, 'not found');
    const body = request.method === 'HEAD' ? null : new Uint8Array(await readFile(file.path));
    return new Response(body, {
      status: 200,
      headers: {
        ...COMMON_HEADERS,
        'Content-Type': file.type,
        'Content-Length': String(body ? body.byteLength : file.size),
        'Cache-Control': 'no-cache',
      },
    });
  };
}
