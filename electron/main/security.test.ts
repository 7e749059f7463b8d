import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { APP_PAGE_URL } from './app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../node/host/csp';
import { hardenSession, hardenWebContents, isAllowedRequest, isTrustedSender, withCsp } from './security';

const rendererUrl = APP_PAGE_URL;

describe('Content-Security-Policy', () => {
  it('is strict: self only, no eval, no remote content, no framing', () => {
    const csp = CONTENT_SECURITY_POLICY;
    for (const d of [
      "default-src 'self'",
      "script-src 'self' 'wasm-unsafe-eval'",
      "worker-src 'self' blob:",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ]) {
      expect(csp).toContain(d);
    }
    // (WebAssembly may be compiled: the line scanner; JavaScript may not be eval'ed)
    expect(csp).not.toMatch(/'unsafe-eval'|https?:|\*/);
    expect(csp.match(/script-src[^;]*/)![0]).not.toContain('unsafe-inline');
  });

  it('replaces any policy a response carried', () => {
    const out = withCsp({
      'content-security-policy': ['default-src *'],
      'Content-Type': 'text/html',
      'CONTENT-SECURITY-POLICY-REPORT-ONLY': ['x'],
    });
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    expect(withCsp(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });
});

describe('isAllowedRequest', () => {
  it.each([
    ['flamelens://app/index.html', true],
    ['flamelens://app/assets/import.worker-abc.js', true],
    ['devtools://devtools/bundled/devtools_app.html', true],
    ['blob:flamelens://app/5d6c1c7e-1b7c-4d8a-9f0b-0a7f2f1d2b3c', true],
    ['data:image/png;base64,AAAA', true],
    ['flamelens://evil/index.html', false],
    ['flamelens://app.evil.example/x.js', false],
    // file:// is refused everywhere, the renderer's own folder included: the page is not there
    ['file:///opt/flamelens/out/renderer/index.html', false],
    ['file:///etc/passwd', false],
    ['file:///opt/flamelens/out/renderer-evil/x.js', false],
    ['https://example.com/telemetry', false],
    ['http://127.0.0.1:8080/', false],
    ['ws://localhost/', false],
    ['chrome://settings', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedRequest(url)).toBe(allowed);
  });
});

function fakeSession() {
  type Hook = (...args: never[]) => unknown;
  const hooks: Record<string, (...args: unknown[]) => unknown> = {};
  const keep = (name: string) => (fn: Hook) => (hooks[name] = fn as (...args: unknown[]) => unknown);
  const session = {
    webRequest: { onBeforeRequest: keep('beforeRequest'), onHeadersReceived: keep('headersReceived') },
    setPermissionRequestHandler: keep('permissionRequest'),
    setPermissionCheckHandler: keep('permissionCheck'),
  };
  return { session: session as unknown as Session, hooks };
}

describe('hardenSession', () => {
  it('cancels network requests, lets the app’s own files through and adds the CSP', () => {
    const { session, hooks } = fakeSession();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    hardenSession(session);
    const decide = (url: string) => {
      let answer: unknown;
      hooks.beforeRequest!({ url }, (r: unknown) => (answer = r));
      return answer;
    };
    expect(decide('https://www.google-analytics.com/collect')).toEqual({ cancel: true });
    expect(decide('flamelens://app/index.html')).toEqual({ cancel: false });
    expect(decide('file:///etc/passwd')).toEqual({ cancel: true });
    expect(warn).toHaveBeenCalledTimes(2);
    let headers: unknown;
    hooks.headersReceived!({ responseHeaders: { 'Content-Type': ['text/html'] } }, (r: unknown) => (headers = r));
    expect(headers).toEqual({ responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    warn.mockRestore();
  });

  it('denies every permission request and check', () => {
    const { session, hooks } = fakeSession();
    hardenSession(session);
    for (const perm of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      hooks.permissionRequest!({}, perm, cb);
      expect(cb).toHaveBeenCalledWith(false);
      expect(hooks.permissionCheck!({}, perm)).toBe(false);
    }
  });
});

describe('hardenWebContents', () => {
  it('denies navigation, redirects, webviews and window.open', () => {
    const listeners: Record<string, (e: { preventDefault(): void }) => void> = {};
    let openHandler: ((d: { url: string }) => unknown) | undefined;
    const contents = {
      on: (name: string, l: (e: { preventDefault(): void }) => void) => (listeners[name] = l),
      setWindowOpenHandler: (h: (d: { url: string }) => unknown) => (openHandler = h),
    };
    hardenWebContents(contents as unknown as WebContents);
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      listeners[name]!(event);
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    // not even to another page of the app's own origin
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      const event = { preventDefault: vi.fn(), url: 'flamelens://app/index.html?other' };
      listeners[name]!(event);
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    expect(openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: rendererUrl })).toEqual({ action: 'deny' });
  });
});

describe('isTrustedSender', () => {
  const mainFrame = { url: rendererUrl };
  const win = { isDestroyed: () => false, webContents: { mainFrame } };

  it('accepts our window’s top frame on our page (query and hash ignored)', () => {
    expect(isTrustedSender(mainFrame, win, rendererUrl)).toBe(true);
    const withHash = { url: `${rendererUrl}?run=1#focus` };
    expect(isTrustedSender(withHash, { ...win, webContents: { mainFrame: withHash } }, rendererUrl)).toBe(true);
  });

  it('rejects other frames, other pages, missing frames and closed windows', () => {
    expect(isTrustedSender({ url: rendererUrl }, win, rendererUrl)).toBe(false); // a subframe
    const evil = { url: 'https://evil.example/index.html' };
    expect(isTrustedSender(evil, { ...win, webContents: { mainFrame: evil } }, rendererUrl)).toBe(false);
    for (const url of [
      'file:///tmp/index.html',
      'file:///opt/flamelens/out/renderer/index.html',
      'flamelens://app/other.html',
      'flamelens://evil/index.html',
    ]) {
      const other = { url };
      expect(isTrustedSender(other, { ...win, webContents: { mainFrame: other } }, rendererUrl), url).toBe(false);
    }
    expect(isTrustedSender(null, win, rendererUrl)).toBe(false);
    expect(isTrustedSender(mainFrame, null, rendererUrl)).toBe(false);
    expect(isTrustedSender(mainFrame, { ...win, isDestroyed: () => true }, rendererUrl)).toBe(false);
  });
});
