/**
 * shared/ names a few web globals as types (`decoder: TextDecoder`). @types/node declares them only
 * as values, so the Node-side program gets the matching interface types here — from Node's own
 * classes, with no DOM library.
 */
/* eslint-disable @typescript-eslint/no-empty-object-type -- declaration merging, not new types */
declare global {
  interface TextDecoder extends InstanceType<typeof import('node:util').TextDecoder> {}
  interface TextEncoder extends InstanceType<typeof import('node:util').TextEncoder> {}
}
export {};
