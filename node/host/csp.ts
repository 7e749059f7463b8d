/**
 * The Content-Security-Policy every Flamelens page is served with — by Electron's session (see
 * security.ts) and by the local server of the browser fallback (node/server/serve.ts). No
 * remote content, no eval; workers only from our own files or blobs the app made itself.
 * `'wasm-unsafe-eval'` lets the import worker compile the WebAssembly line scanner that ships in
 * its own code (shared/import/io/line-scanner.ts); it allows no JavaScript eval.
 * Electron-free so that the command-line bundle can use it.
 */
export const CSP_DIRECTIVES: readonly string[] = [
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
];

export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.join('; ');
