/**
 * Finding a file of the built renderer for a request path, for the two things that serve it: the
 * flamelens:// protocol of the desktop app (app-protocol.ts) and the loopback server of the
 * browser fallback (node/server/serve.ts). Only regular files inside the renderer folder are
 * ever found: no `..`, no encoded separators or NUL, no symlink that points out, no directories.
 * Electron-free, so that the command-line bundle can use it.
 */
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './csp';

export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Headers every response of the app's own pages carries, whoever serves them. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

export interface StaticFile {
  /** the real path (symlinks resolved), inside the root */
  path: string;
  size: number;
  /** Content-Type; `application/octet-stream` for an unknown extension */
  type: string;
}

/** True when `path` is strictly inside `dir` (both absolute). */
export function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The file `urlPath` (a URL's path, still percent-encoded, starting with `/`) names inside
 * `rootDir` — which must itself be a real path — or null when there is none or it would leave
 * the folder. A path ending in `/` names its index.html.
 */
export async function findStaticFile(rootDir: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  const wanted = join(rootDir, decoded.endsWith('/') ? `${decoded}index.html` : decoded);
  if (!inside(rootDir, wanted)) return null;
  // Resolve symlinks too: the file actually read must be inside the renderer folder.
  const real = await realpath(wanted).catch(() => null);
  if (real === null || !inside(rootDir, real)) return null;
  const st = await stat(real).catch(() => null);
  if (st === null || !st.isFile()) return null; // no directory listings
  return { path: real, size: st.size, type: MIME_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream' };
}
