import { createHash } from 'node:crypto';

/**
 * The value with each typed array as its type, length and a hash of its bytes: two profiles
 * compared field by field, without the slow deep equality of big arrays.
 */
export function digest(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) {
    const hash = createHash('sha256')
      .update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))
      .digest('hex');
    return `${v.constructor.name}(${v.byteLength} bytes) ${hash}`;
  }
  if (Array.isArray(v)) return v.map(digest);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, digest(x)]));
  return v;
}
