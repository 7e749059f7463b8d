/**
 * Normalized frame keys: "the same function" across runs recorded on different machines, with
 * different tiers and addresses. The key drives diff alignment, synchronized zoom, cross-pane
 * hover and per-function colours.
 */

const TIER_PREFIX = /^[~^+*](?=\S)/;
const ADDRESS_SUFFIX = /\+0x[0-9a-f]+$/i;

/** Removes a V8 tier marker (`~fn`, `^fn`, `+fn`, `*fn`) and a trailing `+0x…` offset. */
export function stripNameDecorations(name: string): string {
  return name.replace(TIER_PREFIX, '').replace(ADDRESS_SUFFIX, '');
}

/**
 * Makes a file reference comparable across machines:
 * - `file:///srv/app/x.js` and `/srv/app/x.js` are the same;
 * - dependency files keep the path from their last `node_modules/` on
 *   (`/srv/app/node_modules/dd-trace/src/x.js` → `node_modules/dd-trace/src/x.js`);
 * - Node core files are written `node:…` (`internal/http.js` from old Node is `node:internal/http`);
 * - other absolute paths keep their last two segments (`/home/a/app/lib/s.js` → `lib/s.js`);
 * - shared objects keep their base name (`/usr/lib/x86_64-linux-gnu/libc.so.6` → `libc.so.6`).
 */
export function comparableFile(file: string): string {
  if (file === '') return '';
  let f = file.replace(/\\/g, '/');
  if (f.startsWith('file://')) f = f.slice(7);
  const q = f.search(/[?#]/);
  if (q > 0 && !f.startsWith('node:')) f = f.slice(0, q);
  const nm = f.lastIndexOf('node_modules/');
  if (nm >= 0) return f.slice(nm);
  if (f.startsWith('node:')) return f;
  if (f.startsWith('internal/')) return 'node:' + f.replace(/\.js$/, '');
  if (/\.so(\.\d+)*$/.test(f) || f.startsWith('[')) {
    const slash = f.lastIndexOf('/');
    return slash >= 0 ? f.slice(slash + 1) : f;
  }
  const parts = f.split('/').filter((p) => p !== '');
  return parts.slice(-2).join('/');
}

/**
 * The key itself: comparable name and file. Lines are left out on purpose: a change shifts them.
 * `files`, when given, keeps each file's comparable form for the next frames of that file (a
 * profile has thousands of frames but tens of files).
 */
export function frameKey(name: string, file: string, files?: Map<string, string>): string {
  const n = stripNameDecorations(name);
  let f = files?.get(file);
  if (f === undefined) {
    f = comparableFile(file);
    files?.set(file, f);
  }
  return f === '' ? n : `${n}\t${f}`;
}
