/**
 * Typed arrays as base64 text (RFC 4648, standard alphabet, padded), little-endian whatever the
 * machine, for the workspace file. Written here because `shared/` has neither `btoa` nor Node's
 * `Buffer`, and `Uint8Array.toBase64` is not in Node 20.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = new Uint8Array(64).map((_, i) => ALPHABET.charCodeAt(i));
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUES[ALPHABET.charCodeAt(i)] = i;
const PAD = 61; // '='

export function bytesToBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = CODES[v >> 18]!;
    out[o++] = CODES[(v >> 12) & 63]!;
    out[o++] = CODES[(v >> 6) & 63]!;
    out[o++] = CODES[v & 63]!;
  }
  if (i < n) {
    const v = (bytes[i]! << 16) | (i + 1 < n ? bytes[i + 1]! << 8 : 0);
    out[o++] = CODES[v >> 18]!;
    out[o++] = CODES[(v >> 12) & 63]!;
    out[o++] = i + 1 < n ? CODES[(v >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  // The output is ASCII, so a UTF-8 decode of it is exact and much faster than fromCharCode per byte.
  return new TextDecoder().decode(out);
}

/** The bytes of base64 text, or undefined when it is not well-formed base64. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  let pad = 0;
  if (text.endsWith('==')) pad = 2;
  else if (text.endsWith('=')) pad = 1;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let v = 0;
    for (let j = 0; j < 4; j++) {
      const c = text.charCodeAt(i + j);
      const last = i + 4 === text.length;
      if (c === PAD && last && j >= 4 - pad) {
        v <<= 6;
        continue;
      }
      const d = c < 128 ? VALUES[c]! : -1;
      if (d < 0) return undefined;
      v = (v << 6) | d;
    }
    if (o < out.length) out[o++] = v >> 16;
    if (o < out.length) out[o++] = (v >> 8) & 255;
    if (o < out.length) out[o++] = v & 255;
  }
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// 32-bit values go through setInt32/getInt32, which keep the bits of unsigned ones too.
type Numeric = Int32Array | Uint32Array | Float64Array | Uint8Array;

/** A typed array's bytes in little-endian order (a view of it where the machine is little-endian). */
export function littleEndianBytes(a: Numeric): Uint8Array {
  if (LITTLE_ENDIAN || a.BYTES_PER_ELEMENT === 1) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const bytes = new Uint8Array(a.byteLength);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < a.length; i++) {
    if (a instanceof Float64Array) view.setFloat64(i * 8, a[i]!, true);
    else view.setInt32(i * 4, a[i]!, true);
  }
  return bytes;
}

/** A typed array's bytes in little-endian order, as base64 text. */
export function typedToBase64(a: Numeric): string {
  return bytesToBase64(littleEndianBytes(a));
}

/** Decodes little-endian base64 into a typed array of `length` elements; undefined when the text does not hold exactly that. */
export function base64ToTyped<T extends Numeric>(
  text: string,
  type: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T | undefined {
  if (text.length !== Math.ceil((length * type.BYTES_PER_ELEMENT) / 3) * 4) return undefined; // checked before allocating anything
  const bytes = base64ToBytes(text);
  return bytes && bytesToTyped(bytes, type, length);
}

/**
 * Little-endian bytes as a typed array of `length` elements (sharing their buffer where it can);
 * undefined when they are not exactly that many.
 */
export function bytesToTyped<T extends Numeric>(
  bytes: Uint8Array,
  type: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T | undefined {
  if (bytes.length !== length * type.BYTES_PER_ELEMENT) return undefined;
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  // A buffer of exactly these bytes is aligned for any element size; else they are copied into one.
  const buffer = whole ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
  if (!LITTLE_ENDIAN && type.BYTES_PER_ELEMENT > 1) {
    const view = new DataView(buffer);
    const copy = new DataView(new ArrayBuffer(bytes.length));
    for (let i = 0; i < length; i++) {
      if (type.BYTES_PER_ELEMENT === 8) copy.setFloat64(i * 8, view.getFloat64(i * 8, true));
      else copy.setInt32(i * 4, view.getInt32(i * 4, true));
    }
    return new type(copy.buffer);
  }
  return new type(buffer);
}
