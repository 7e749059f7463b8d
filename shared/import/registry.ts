/**
 * The importers, in the order their content tests are tried. Specific formats come before
 * permissive ones: binary pprof first, JSON shapes next (heap snapshots, told by their first key, first) (0x files before the generic V8 and
 * trace shapes they resemble), then perf script, and folded stacks — which accepts almost any
 * `text 123` line — last.
 */
import type { Importer } from './importer';
import { pprofImporter } from './formats/pprof/pprof';
import { zeroExImporter } from './formats/zeroex/zeroex';
import { cpuprofileImporter } from './formats/v8/cpuprofile';
import { heapprofileImporter } from './formats/v8/heapprofile';
import { heapsnapshotImporter } from './formats/v8/heapsnapshot';
import { traceEventsImporter } from './formats/trace/trace-events';
import { perfScriptImporter } from './formats/perf/perf-script';
import { foldedImporter } from './formats/folded/folded';

export const IMPORTERS: Importer[] = [
  pprofImporter,
  heapsnapshotImporter,
  zeroExImporter,
  cpuprofileImporter,
  heapprofileImporter,
  traceEventsImporter,
  perfScriptImporter,
  foldedImporter,
];
