import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_PAGE_URL, createAppProtocolHandler, isAppUrl, registerAppScheme } from './app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../node/host/csp';
import { findStaticFile } from '../../node/host/static-files';

let dir: string;
let renderer: string;
let handle: (request: Request) => Promise<Response>;

/** A request as the protocol handler gets it; the URL exactly as written (no normalization). */
const req = (url: string, method = 'GET') => ({ url, method }) as Request;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flamelens-protocol-')));
  renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Flamelens</title>');
  writeFileSync(join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(renderer, 'assets', 'import.worker-def.js'), 'self.onmessage = () => {}');
  writeFileSync(join(renderer, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(renderer, 'assets', 'scanner.wasm'), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  symlinkSync(join(dir, 'secret.txt'), join(renderer, 'assets', 'escape.js'));
  symlinkSync(dir, join(renderer, 'up'));
  handle = createAppProtocolHandler(renderer);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the flamelens:// scheme', () => {
  it('is registered before ready as standard and secure, with fetch and streams, without CORS or a CSP bypass', () => {
    const protocol = { registerSchemesAsPrivileged: vi.fn() };
    registerAppScheme(protocol);
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledExactlyOnceWith([
      { scheme: 'flamelens', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true } },
    ]);
  });

  it.each([
    [APP_PAGE_URL, true],
    ['flamelens://app/assets/import.worker-def.js', true],
    ['flamelens://other/index.html', false],
    ['flamelens://user:pw@app/index.html', false],
    ['file:///opt/flamelens/out/renderer/index.html', false],
    ['https://app/index.html', false],
    ['not a url', false],
  ])('isAppUrl(%s) → %s', (url, app) => {
    expect(isAppUrl(url)).toBe(app);
  });
});

describe('the flamelens:// handler', () => {
  it.each([
    ['flamelens://app/index.html', 'text/html; charset=utf-8', '<!doctype html><title>Flamelens</title>'],
    ['flamelens://app/', 'text/html; charset=utf-8', '<!doctype html><title>Flamelens</title>'],
    ['flamelens://app/assets/index-abc.js', 'text/javascript; charset=utf-8', 'console.log(1)'],
    // a module worker is a script: Chromium refuses one served with another type
    ['flamelens://app/assets/import.worker-def.js?worker_file&type=module', 'text/javascript; charset=utf-8', 'self.onmessage = () => {}'],
    ['flamelens://app/assets/index-abc.css', 'text/css; charset=utf-8', 'body{}'],
  ])('serves %s as %s, with the CSP', async (url, type, body) => {
    const res = await handle(req(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(body);
  });

  it('serves WebAssembly as application/wasm (streaming compilation needs it)', async () => {
    const res = await handle(req('flamelens://app/assets/scanner.wasm'));
    expect(res.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  });

  it.each([
    'flamelens://app/../secret.txt',
    'flamelens://app/assets/../../secret.txt',
    'flamelens://app/%2e%2e/secret.txt',
    'flamelens://app/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'flamelens://app/..%5csecret.txt',
    'flamelens://app/assets/escape.js',
    'flamelens://app/up/secret.txt',
    'flamelens://app/index.html%00.js',
    'flamelens://app/%E0%A4%A',
    `flamelens://app/${dir}/secret.txt`,
    'flamelens://app//etc/passwd',
    'flamelens://app/assets',
    'flamelens://app/assets/',
    'flamelens://app/missing.js',
  ])('refuses %s (traversal, symlinks out, folders, nothing there), with the CSP', async (url) => {
    const res = await handle(req(url));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await res.text()).not.toContain('do not serve');
  });

  it.each(['flamelens://evil/index.html', 'flamelens://app.evil/index.html', 'flamelens://user@app/index.html', 'file:///etc/passwd'])(
    'refuses the unknown host of %s',
    async (url) => {
      const res = await handle(req(url));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    },
  );

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await handle(req(APP_PAGE_URL, 'HEAD'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('39');
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await handle(req(APP_PAGE_URL, method));
      expect(res.status).toBe(405);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
  });
});

describe('findStaticFile', () => {
  it('finds only regular files inside the folder, by their real path', async () => {
    expect(await findStaticFile(renderer, '/assets/index-abc.js')).toEqual({
      path: join(renderer, 'assets', 'index-abc.js'),
      size: 14,
      type: 'text/javascript; charset=utf-8',
    });
    expect(await findStaticFile(renderer, 'index.html')).toBeNull(); // not a URL path
    expect(await findStaticFile(renderer, '/up/secret.txt')).toBeNull();
    expect(await findStaticFile(renderer, '/%2e%2e/secret.txt')).toBeNull();
  });
});

describe('a chosen file streamed to the import worker', () => {
  it('serves a file the registry issued a token for, whole, and nothing else', async () => {
    const { createFileRegistry } = await import('../../node/host/files');
    const registry = createFileRegistry();
    const path = join(dir, 'run.cpuprofile');
    writeFileSync(path, '0123456789');
    const item = await registry.choose(path);
    if (item.kind !== 'file') throw new Error('expected a file');
    const files = createAppProtocolHandler(renderer, registry);
    const url = `flamelens://app/api/stream/${encodeURIComponent(item.file.token)}`;
    const got = await files(req(url));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-length')).toBe('10');
    expect(got.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await got.text()).toBe('0123456789');
    const head = await files(req(url, 'HEAD'));
    expect(head.headers.get('content-length')).toBe('10');
    expect(await head.text()).toBe('');
    expect((await files(req('flamelens://app/api/stream/not-a-token'))).status).toBe(404);
    expect((await files(req(`flamelens://app/api/stream/${encodeURIComponent(path)}`))).status).toBe(404);
    expect((await files(req('flamelens://app/api/stream/%E0%A4%A'))).status).toBe(404);
    // a handler without the registry serves no files at all
    expect((await handle(req(url))).status).toBe(404);
  });
});
