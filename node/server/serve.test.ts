import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChosenItem } from '../../shared/ipc/contract';
import { CONTENT_SECURITY_POLICY } from '../host/csp';
import { readParsedProfile } from '../../shared/workspace/parsed-profile';
import type { ParseRequest } from './parse-file';
import { type FileParser, inProcessParser } from './parse-pool';
import { type RunningServer, hostAllowed, secretMatches, startServer } from './serve';

let dir: string;
let server: RunningServer;
let port: number;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The server's secret path prefix, `/<secret>`. */
let prefix: string;

/**
 * A raw request: unlike fetch, it sends `..` and odd encodings exactly as written. The path is
 * under the server's secret unless `bare`.
 */
function get(path: string, opts: { method?: string; host?: string; bare?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: opts.bare ? path : `${prefix}${path}`,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? `127.0.0.1:${port}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-serve-'));
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Flamelens</title>');
  writeFileSync(join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(renderer, 'assets', 'import.worker-def.js'), 'self.onmessage = () => {}');
  writeFileSync(join(renderer, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(renderer, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  symlinkSync(join(dir, 'secret.txt'), join(renderer, 'assets', 'escape.js'));
  writeFileSync(join(dir, 'run.cpuprofile'), '0123456789');
  mkdirSync(join(dir, '42.0x'));
  writeFileSync(join(dir, '42.0x', 'meta.json'), '{"a":1}');
  server = await startServer({ items: [join(dir, 'run.cpuprofile'), join(dir, '42.0x')], rendererDir: renderer });
  port = Number(new URL(server.url).port);
  prefix = new URL(server.url).pathname.replace(/\/$/, '');
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('static files', () => {
  it('serves the renderer with the CSP and the right MIME types', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.body.toString()).toContain('<title>Flamelens</title>');
    expect((await get('/index.html')).status).toBe(200);
    for (const [path, type] of [
      ['/assets/index-abc.js', 'text/javascript; charset=utf-8'],
      ['/assets/import.worker-def.js', 'text/javascript; charset=utf-8'],
      ['/assets/index-abc.css', 'text/css; charset=utf-8'],
      ['/assets/logo.svg', 'image/svg+xml'],
    ]) {
      const r = await get(path!);
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe(type);
      expect(r.headers['content-security-policy'], path).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('answers HEAD without a body', async () => {
    const r = await get('/assets/index-abc.js', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe('14');
    expect(r.body.length).toBe(0);
  });

  it('never lists a directory', async () => {
    expect((await get('/assets')).status).toBe(404);
    expect((await get('/assets/')).status).toBe(404);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5csecret.txt',
    '/assets/escape.js',
    '/index.html%00.js',
    '/%E0%A4%A',
    `/${tmpdir()}/secret.txt`,
    '//etc/passwd',
  ])('blocks path traversal: %s', async (path) => {
    const r = await get(path);
    // 404 inside the secret folder; 403 where `..` climbed out of it
    expect([403, 404]).toContain(r.status);
    expect(r.body.toString()).not.toContain('do not serve');
  });

  it('refuses other methods and other Host names (DNS rebinding)', async () => {
    expect((await get('/', { method: 'POST' })).status).toBe(405);
    expect((await get('/', { method: 'DELETE' })).status).toBe(405);
    expect((await get('/', { host: 'evil.example' })).status).toBe(421);
    expect((await get('/api/initial-items', { host: `attacker.example:${port}` })).status).toBe(421);
    expect((await get('/', { host: `localhost:${port}` })).status).toBe(200);
    expect(hostAllowed(undefined, port)).toBe(false);
    expect(hostAllowed(`[::1]:${port}`, port)).toBe(true);
  });
});

describe('api', () => {
  async function items(): Promise<ChosenItem[]> {
    const r = await get('/api/initial-items');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    return JSON.parse(r.body.toString()) as ChosenItem[];
  }

  it('lists the command-line files and folders with tokens', async () => {
    const list = await items();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ kind: 'file', file: { name: 'run.cpuprofile', path: join(dir, 'run.cpuprofile'), size: 10 } });
    expect(list[1]).toMatchObject({ kind: 'folder', folder: { name: '42.0x', files: [{ name: 'meta.json', size: 7 }] } });
    // The same tokens on every call.
    expect(await items()).toEqual(list);
  });

  it('reads byte ranges by token', async () => {
    const [file, folder] = await items();
    const token = file!.kind === 'file' ? file!.file.token : '';
    const r = await get(`/api/files/${encodeURIComponent(token)}?offset=2&length=3`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.body.toString()).toBe('234');
    expect((await get(`/api/files/${token}?offset=8&length=100`)).body.toString()).toBe('89');
    expect((await get(`/api/files/${token}?offset=10&length=100`)).body.length).toBe(0);
    expect((await get(`/api/files/${token}`)).body.toString()).toBe('0123456789');
    const metaToken = folder!.kind === 'folder' ? folder!.folder.files[0]!.token : '';
    expect((await get(`/api/files/${metaToken}?offset=0&length=100`)).body.toString()).toBe('{"a":1}');
  });

  it('404s unknown tokens and 400s bad ranges', async () => {
    const [file] = await items();
    const token = file!.kind === 'file' ? file!.file.token : '';
    expect((await get('/api/files/not-a-token?offset=0&length=10')).status).toBe(404);
    expect((await get(`/api/files/${encodeURIComponent(join(dir, 'secret.txt'))}?offset=0&length=10`)).status).toBe(404);
    expect((await get('/api/files/%E0%A4%A?offset=0&length=1')).status).toBe(404);
    for (const q of [
      'offset=-1&length=1',
      'offset=abc&length=1',
      'offset=1e3&length=1',
      'offset=0&length=-4',
      'offset=99999999999999999&length=1',
    ]) {
      expect((await get(`/api/files/${token}?${q}`)).status, q).toBe(400);
    }
  });

  it('streams a whole file named on the command line, and nothing else', async () => {
    const items = JSON.parse((await get('/api/initial-items')).body.toString()) as ChosenItem[];
    const token = items[0]!.kind === 'file' ? items[0]!.file.token : '';
    const r = await get(`/api/stream/${encodeURIComponent(token)}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe('10');
    expect(r.body.toString()).toBe('0123456789');
    expect((await get(`/api/stream/${encodeURIComponent(token)}`, { method: 'HEAD' })).body.length).toBe(0);
    expect((await get('/api/stream/not-a-token')).status).toBe(404);
    expect((await get(`/api/stream/${encodeURIComponent(join(dir, 'secret.txt'))}`)).status).toBe(404);
    expect((await get(`/api/stream/${encodeURIComponent(token)}`, { bare: true })).status).toBe(403);
  });

  it('serves nothing else under /api', async () => {
    expect((await get('/api/')).status).toBe(404);
    expect((await get('/api/recent')).status).toBe(404);
    expect((await get('/api/files/')).status).toBe(404);
  });
});

describe('files parsed by the server', () => {
  /** A server on one folded file with `parser`, and that file's token. */
  async function withParser(parser: FileParser): Promise<{ url: string; token: string; close: () => Promise<void> }> {
    const file = join(dir, 'stacks.folded');
    writeFileSync(file, 'main;handler;work 3\nmain;gc 1\n');
    const s = await startServer({ items: [file], rendererDir: join(dir, 'renderer'), parser });
    const items = (await (await fetch(`${s.url}api/initial-items`)).json()) as ChosenItem[];
    return { url: s.url, token: items[0]!.kind === 'file' ? items[0]!.file.token : '', close: () => s.close() };
  }

  it('answers with the profile, every thread kept when asked, and only for files named on the command line', async () => {
    const s = await withParser(inProcessParser());
    try {
      const r = await fetch(`${s.url}api/parsed/${encodeURIComponent(s.token)}?threads=all`);
      expect(r.status).toBe(200);
      const answer = await readParsedProfile(r.body!, 'stacks.folded');
      expect('profile' in answer && answer.profile.tree.total[0]).toBe(4);
      expect((await fetch(`${s.url}api/parsed/not-a-token`)).status).toBe(404);
      expect((await fetch(`${s.url}api/parsed/${encodeURIComponent(join(dir, 'secret.txt'))}`)).status).toBe(404);
    } finally {
      await s.close();
    }
    // a server without a parser has no such address: the window reads the file itself
    expect((await get('/api/parsed/x')).status).toBe(404);
  });

  it('asks its parser as the window asked, and stops the parse when the window goes away', async () => {
    const asked: ParseRequest[] = [];
    let cancelled = 0;
    let closed = 0;
    const parser: FileParser = {
      parse(req, onEvent) {
        asked.push(req);
        onEvent({ type: 'progress', read: 1, size: 10 });
        return { done: new Promise<void>(() => undefined), cancel: () => void cancelled++ };
      },
      close: async () => void closed++,
    };
    const s = await withParser(parser);
    const gone = new AbortController();
    const r = await fetch(`${s.url}api/parsed/${encodeURIComponent(s.token)}`, { signal: gone.signal });
    const reader = r.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"progress":[1,10]}\n');
    expect(asked).toEqual([{ path: join(dir, 'stacks.folded'), keepThreads: false }]);
    gone.abort();
    await expect.poll(() => cancelled).toBe(1);
    await s.close();
    expect(closed).toBe(1);
  });

  it('parses the files named on the command line while the page opens, and answers the window with that parse', async () => {
    const real = inProcessParser();
    const asked: ParseRequest[] = [];
    const parser: FileParser = {
      parse(req, onEvent) {
        asked.push(req);
        return real.parse(req, onEvent);
      },
      close: () => real.close(),
    };
    const folded = join(dir, 'ahead.folded');
    writeFileSync(folded, 'main;handler;work 3\nmain;gc 1\n');
    const profile = join(dir, 'ahead.cpuprofile');
    writeFileSync(profile, '{}');
    const s = await startServer({ items: [folded, profile], rendererDir: join(dir, 'renderer'), parser });
    try {
      const items = (await (await fetch(`${s.url}api/initial-items`)).json()) as ChosenItem[];
      expect(asked).toEqual([]);
      expect((await fetch(s.url)).status).toBe(200);
      // a .cpuprofile is read in the window: not parsed ahead
      expect(asked).toEqual([{ path: folded, keepThreads: true }]);
      await fetch(s.url);
      expect(asked).toHaveLength(1);
      await fetch(`${s.url}api/initial-items`);
      expect(asked).toHaveLength(1);
      const token = items[0]!.kind === 'file' ? items[0]!.file.token : '';
      const answer = await readParsedProfile(
        (await fetch(`${s.url}api/parsed/${encodeURIComponent(token)}?threads=all`)).body!,
        'ahead.folded',
      );
      expect('profile' in answer && [...answer.profile.tree.total]).toEqual([4, 4, 3, 3, 1]);
      expect(asked).toHaveLength(1);
      // the window asking again gets a parse of its own; a page opened again, a parse ahead again
      await (await fetch(`${s.url}api/parsed/${encodeURIComponent(token)}?threads=all`)).arrayBuffer();
      expect(asked).toHaveLength(2);
      await fetch(s.url);
      expect(asked).toHaveLength(3);
    } finally {
      await s.close();
    }
    // a caller about to start a browser starts the parses itself; the page's request then starts none
    const early = await startServer({ items: [folded], rendererDir: join(dir, 'renderer'), parser });
    try {
      early.parseAhead();
      expect(asked).toHaveLength(4);
      expect((await fetch(early.url)).status).toBe(200);
      expect(asked).toHaveLength(4);
    } finally {
      await early.close();
    }
    // with a workspace file named, the window opens only that: nothing is parsed ahead
    const workspace = join(dir, 'ahead.flamelens');
    writeFileSync(workspace, '{}');
    const w = await startServer({ items: [folded, workspace], rendererDir: join(dir, 'renderer'), parser });
    try {
      expect((await fetch(w.url)).status).toBe(200);
      expect(asked).toHaveLength(4);
    } finally {
      await w.close();
    }
  });
});

describe('the secret in the address', () => {
  it('is required on every request: without it, or with a wrong one, the answer is 403', async () => {
    const secret = prefix.slice(1);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      '/',
      '/index.html',
      '/assets/index-abc.js',
      '/api/initial-items',
      `/${wrong}/`,
      `/${wrong}/api/initial-items`,
      `/${secret}x/`,
      `/${secret.slice(1)}/`,
    ]) {
      const r = await get(path, { bare: true });
      expect(r.status, path).toBe(403);
      expect(r.body.toString(), path).not.toContain('run.cpuprofile');
    }
    expect((await get('/api/initial-items')).status).toBe(200);
    const redirect = await get(prefix, { bare: true });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe(`${prefix}/`);
  });

  it('is new for every server unless given, and must look like one', async () => {
    const a = await startServer({ items: [], rendererDir: join(dir, 'renderer') });
    const b = await startServer({ items: [], rendererDir: join(dir, 'renderer'), secret: 'given-secret-0123456789' });
    expect(new URL(a.url).pathname).not.toBe(new URL(server.url).pathname);
    expect(new URL(b.url).pathname).toBe('/given-secret-0123456789/');
    await a.close();
    await b.close();
    for (const secret of ['short', 'has/slash-0123456789', 'has space 0123456789', ''])
      await expect(startServer({ items: [], rendererDir: join(dir, 'renderer'), secret })).rejects.toThrow(/secret/);
  });

  it('compares whole secrets only', () => {
    const s = Buffer.from('abcdefghijklmnop');
    expect(secretMatches('abcdefghijklmnop', s)).toBe(true);
    expect(secretMatches('abcdefghijklmno', s)).toBe(false);
    expect(secretMatches('abcdefghijklmnopq', s)).toBe(false);
    expect(secretMatches('', s)).toBe(false);
    expect(secretMatches('abcdefghijklmnoq', s)).toBe(false);
  });
});

describe('startServer', () => {
  it('listens on loopback only', async () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      await expect(startServer({ items: [], host, rendererDir: join(dir, 'renderer') })).rejects.toThrow(/loopback/);
    }
  });

  it('refuses to start on files that cannot be opened or without a built renderer', async () => {
    await expect(startServer({ items: [join(dir, 'nope.cpuprofile')], rendererDir: join(dir, 'renderer') })).rejects.toThrow(
      /cannot open .*nope\.cpuprofile: no such file or directory/,
    );
    await expect(startServer({ items: [], rendererDir: join(dir, 'missing') })).rejects.toThrow(/npm run build/);
  });

  it('can serve on a given port and close', async () => {
    const other = await startServer({ items: [], rendererDir: join(dir, 'renderer') });
    const p = Number(new URL(other.url).port);
    await other.close();
    const again = await startServer({ items: [], port: p, rendererDir: join(dir, 'renderer') });
    expect(again.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${p}/[A-Za-z0-9_-]{32}/$`));
    await again.close();
  });

  it('fails on a port that is taken, or takes any free one where asked to', async () => {
    const holder = await startServer({ items: [], rendererDir: join(dir, 'renderer') });
    const p = Number(new URL(holder.url).port);
    await expect(startServer({ items: [], port: p, rendererDir: join(dir, 'renderer') })).rejects.toThrow(/EADDRINUSE/);
    const other = await startServer({ items: [], port: p, anyPortIfTaken: true, rendererDir: join(dir, 'renderer') });
    const q = Number(new URL(other.url).port);
    expect(q).not.toBe(p);
    expect((await fetch(`${other.url}api/initial-items`)).status).toBe(200);
    await other.close();
    await holder.close();
  });
});
