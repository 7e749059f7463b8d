/**
 * Hardening of the window's session and web contents, and the IPC sender check. The renderer
 * shows untrusted profile data; if a bug ever let that data run script, these make sure it still
 * could not reach the network, other local files, new windows, other pages or main's IPC.
 * Only Electron *types* are imported, so the functions take the objects they harden.
 */
import type { BrowserWindow, Session, WebContents, WebFrameMain } from 'electron';
import { isAppUrl } from './app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../node/host/csp';

/**
 * The requests the app may make: its own files at `flamelens://app/` (served by app-protocol.ts
 * from the renderer folder only), DevTools, and blob:/data: URLs it created itself. Nothing else —
 * no network (the app never phones home) and no file:// at all (the renderer reads the files the
 * user chose through main's file tokens, and dropped files through the File API).
 */
export function isAllowedRequest(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  switch (parsed.protocol) {
    case 'devtools:':
    case 'blob:':
    case 'data:':
      return true;
    default:
      return isAppUrl(url);
  }
}

/** Response headers with our CSP replacing whatever policy (if any) they carried. */
export function withCsp(headers: Record<string, string | string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}

/** CSP on every response, every non-app request cancelled, every permission denied. */
export function hardenSession(session: Session): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequest(details.url);
    if (!allowed) console.warn(`flamelens: blocked a request to ${details.url.slice(0, 200)}`);
    callback({ cancel: !allowed });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders) });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * No navigation of any frame, no redirects, no new windows, no <webview>. The window's one page
 * is loaded by main (`loadURL`, which these events do not see); the page itself may go nowhere,
 * not even to another `flamelens://app/` address.
 */
export function hardenWebContents(contents: WebContents): void {
  const deny = (event: { preventDefault(): void }): void => event.preventDefault();
  contents.on('will-navigate', deny);
  contents.on('will-frame-navigate', deny);
  contents.on('will-redirect', deny);
  contents.on('will-attach-webview', deny);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

type FrameLike = Pick<WebFrameMain, 'url'>;
type WindowLike = Pick<BrowserWindow, 'isDestroyed'> & { webContents: { mainFrame: unknown } };

/**
 * True only for the top frame of our own window while it shows our renderer page
 * (`flamelens://app/index.html`). Query and fragment are ignored (the renderer may use them for
 * its own state).
 */
export function isTrustedSender(frame: FrameLike | null | undefined, win: WindowLike | null | undefined, rendererUrl: string): boolean {
  if (!frame || !win || win.isDestroyed()) return false;
  if (frame !== win.webContents.mainFrame) return false;
  try {
    const got = new URL(frame.url);
    const want = new URL(rendererUrl);
    return got.protocol === want.protocol && got.host === want.host && got.pathname === want.pathname;
  } catch {
    return false;
  }
}
