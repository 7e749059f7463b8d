import { Category } from './types';

/** Node.js core module names, for old profiles that name core files without `node:` (`events.js`). */
const NODE_CORE_MODULES = new Set(
  (
    'assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns ' +
    'domain events fs http http2 https inspector module net os path perf_hooks process punycode querystring ' +
    'readline repl stream string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib ' +
    '_http_agent _http_client _http_common _http_incoming _http_outgoing _http_server _stream_duplex ' +
    '_stream_passthrough _stream_readable _stream_transform _stream_writable _tls_common _tls_wrap bootstrap_node'
  ).split(' '),
);

const IDLE_NAMES = new Set(['(root)', '(program)', '(idle)', 'idle', '(unknown)', 'all stacks']);

/**
 * The npm package a file belongs to: the path segment(s) after the last `node_modules/`,
 * scoped packages included (`…/node_modules/@dynatrace/oneagent/x.js` → `@dynatrace/oneagent`).
 */
export function packageOf(file: string): string {
  const f = file.replace(/\\/g, '/');
  const i = f.lastIndexOf('node_modules/');
  if (i < 0) return '';
  const rest = f.slice(i + 'node_modules/'.length).split('/');
  if (rest[0]?.startsWith('@') && rest.length > 1) return `${rest[0]}/${rest[1]}`;
  return rest[0] ?? '';
}

/** First characters a collector's frame name can start with (see `isGcName`). */
const GC_FIRST = new Set(['(', 'v', 'V', 'M', 'G', 'C', 'c', 'h']);

function isGcName(name: string): boolean {
  // (most names start otherwise: three regular expressions are not run for them)
  if (!GC_FIRST.has(name.charAt(0))) return false;
  return (
    name === '(garbage collector)' ||
    /^v8::internal::(Heap|Scavenger|MarkCompactCollector|MinorMarkCompactCollector|MinorMS|ScavengerCollector|ConcurrentMarking|IncrementalMarking|MarkingVisitor|Sweeper|GCTracer|MemoryAllocator)\b/.test(
      name,
    ) ||
    /^(V8\.GC|MajorGC|MinorGC|GC[A-Z]|CustomGC)/.test(name) ||
    // native V8 / Oilpan collector internals as perf shows them (`cppgc::internal::MarkerBase::StartMarking`,
    // `v8::internal::MarkingVisitorBase<…>::VisitMapPointer`, `v8::internal::Heap_CombinedGenerationalAndSharedBarrierSlow`)
    /^(cppgc|heap::base)::|^v8::internal::(Heap_|CppHeap\b|.*(Scaveng|Marking|Evacuat|Sweep|MinorGC|MinorMS))/.test(name)
  );
}

/** First characters a V8 frame name can start with (see `isV8Name`). */
const V8_FIRST = new Set(['B', 'S', 'H', 'L', 'K', 'v', 'V', 'R', 'F', 'E', 'I', 'C', '(']);

function isV8Name(name: string): boolean {
  // (most names start otherwise: the expression is not run for them)
  if (!V8_FIRST.has(name.charAt(0))) return false;
  return /^(Builtins?_|Builtin:|BytecodeHandler:|Stub:|Handler:|LoadIC|StoreIC|KeyedLoadIC|KeyedStoreIC|v8::|V8\.|v8_|Runtime_|Function:|Eval:|Script:|InterpreterEntryTrampoline|CompileLazy|\(v8\))/.test(
    name,
  );
}

/** A kernel image or module as perf names it: `/lib/modules/4.1.0/build/vmlinux`, `[nf_conntrack]`, `x.ko`. */
function isKernelObject(dso: string): boolean {
  // (most objects are none of these: the expressions are not run for them)
  if (!dso.startsWith('[') && !dso.includes('vmlinux') && !dso.includes('.ko')) return false;
  if (/(^|\/)vmlinux(-[^/]*)?$|\.ko(\.[gx]z|\.zst)?$/.test(dso)) return true;
  return /^\[[\w-]+\]$/.test(dso) && !/^\[(vdso|vsyscall|vvar|unknown|heap|stack|anon|uprobes)\]$/.test(dso);
}

/**
 * Picks the category of a frame from its name and file. `dso` is the shared object or binary a
 * native frame came from (perf script's parenthesised column, 0x `SHARED_LIB`), '' when unknown.
 */
export function categorize(name: string, file: string, dso = ''): Category {
  if (IDLE_NAMES.has(name)) return Category.Idle;
  if (isGcName(name)) return Category.GC;
  if (name.endsWith('_[k]') || dso === '[kernel.kallsyms]' || dso.startsWith('[kernel') || isKernelObject(dso)) return Category.Kernel;
  if (name.startsWith('RegExp:') || (name.startsWith('/') && name.endsWith('/')) || file === 'regexp') return Category.RegExp;
  if (name.startsWith('wasm-function') || file.endsWith('.wasm') || name.startsWith('Wasm:')) return Category.Wasm;
  if (dso !== '' && file === dso) {
    // Native code located by its binary (perf script): an addon under node_modules belongs to its
    // package; anything else is V8 or native, never the application's JavaScript.
    if (file.includes('node_modules/') || file.includes('node_modules\\')) return Category.Dependency;
    return isV8Name(name) ? Category.V8 : Category.Native;
  }
  if (file !== '') {
    if (file.includes('node_modules/') || file.includes('node_modules\\')) return Category.Dependency;
    if (file.startsWith('node:') || file.startsWith('internal/')) return Category.NodeCore;
    const base = file.replace(/\.js$/, '');
    if (!base.includes('/') && !base.includes('\\') && NODE_CORE_MODULES.has(base)) return Category.NodeCore;
    if (/\.(m|c)?[jt]sx?$|^(file|https?|webpack|evalmachine)/.test(file)) return Category.App;
  }
  if (isV8Name(name)) return Category.V8;
  if (/\.so(\.\d+)*$|^\/usr\/|^\/lib|\/node$|\[vdso\]|\bnode\b/.test(dso)) return Category.Native;
  if (
    /^(node::|uv_|uv__|std::|__|_IO_|[a-z_]+@@?GLIBC|llhttp|ares_|ssl|SSL_|EVP_|CRYPTO_|BN_|OPENSSL|nghttp|brotli|deflate|inflate)/.test(
      name,
    )
  )
    return Category.Native;
  if (file !== '') return Category.App;
  return Category.Other;
}
