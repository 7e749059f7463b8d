/**
 * The only platform APIs `shared/` may use: the web-standard streams, text codecs and compression
 * streams that Node.js, browsers, workers and Electron all provide as globals. `shared/` is
 * type-checked without the DOM and Node libraries, so anything else fails to compile there.
 */
declare global {
  interface ReadableStreamReadResultDone {
    done: true;
    value?: undefined;
  }
  interface ReadableStreamReadResultValue<T> {
    done: false;
    value: T;
  }
  type ReadableStreamReadResult<T> = ReadableStreamReadResultDone | ReadableStreamReadResultValue<T>;
  interface ReadableStreamDefaultReader<R = unknown> {
    read(): Promise<ReadableStreamReadResult<R>>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  }
  interface ReadableStreamDefaultController<R = unknown> {
    enqueue(chunk: R): void;
    close(): void;
    error(e?: unknown): void;
  }
  interface UnderlyingSource<R = unknown> {
    start?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
    pull?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
    cancel?(reason?: unknown): void | Promise<void>;
  }
  interface ReadableWritablePair<R, W> {
    readable: ReadableStream<R>;
    writable: WritableStream<W>;
  }
  interface WritableStreamDefaultWriter<W = unknown> {
    write(chunk: W): Promise<void>;
    close(): Promise<void>;
    abort(reason?: unknown): Promise<void>;
  }
  interface WritableStream<W = unknown> {
    readonly locked: boolean;
    getWriter(): WritableStreamDefaultWriter<W>;
    /** brand so that W is used */
    readonly __chunk?: W;
  }
  interface ReadableStream<R = unknown> {
    getReader(): ReadableStreamDefaultReader<R>;
    pipeThrough<T>(transform: ReadableWritablePair<T, R>): ReadableStream<T>;
    cancel(reason?: unknown): Promise<void>;
  }
  var ReadableStream: {
    prototype: ReadableStream;
    new <R = unknown>(source?: UnderlyingSource<R>, strategy?: { highWaterMark?: number }): ReadableStream<R>;
  };
  interface TransformStreamDefaultController<O = unknown> {
    enqueue(chunk: O): void;
    error(reason?: unknown): void;
  }
  interface Transformer<I = unknown, O = unknown> {
    transform?(chunk: I, controller: TransformStreamDefaultController<O>): void | Promise<void>;
    flush?(controller: TransformStreamDefaultController<O>): void | Promise<void>;
  }
  type TransformStream<I = unknown, O = unknown> = ReadableWritablePair<O, I>;
  var TransformStream: {
    new <I = unknown, O = unknown>(transformer?: Transformer<I, O>): TransformStream<I, O>;
  };
  var DecompressionStream: {
    new (format: 'gzip' | 'deflate' | 'deflate-raw'): ReadableWritablePair<Uint8Array, Uint8Array>;
  };
  var CompressionStream: {
    new (format: 'gzip' | 'deflate' | 'deflate-raw'): ReadableWritablePair<Uint8Array, Uint8Array>;
  };
  var TextDecoderStream: {
    new (label?: string, options?: { fatal?: boolean }): ReadableWritablePair<string, Uint8Array>;
  };
  var TextEncoderStream: {
    new (): ReadableWritablePair<Uint8Array, string>;
  };
  interface TextDecoder {
    readonly encoding: string;
    decode(input?: Uint8Array, options?: { stream?: boolean }): string;
  }
  var TextDecoder: {
    new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
  };
  interface TextEncoder {
    encode(input?: string): Uint8Array;
    encodeInto(src: string, dest: Uint8Array): { read: number; written: number };
  }
  var TextEncoder: { new (): TextEncoder };
  interface AbortSignal {
    readonly aborted: boolean;
    readonly reason: unknown;
  }
  var DOMException: { new (message?: string, name?: string): Error };
  function atob(data: string): string;
}
export {};
