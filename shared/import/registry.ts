/**
 * The importers, in the order their content tests are tried. Specific formats come before
 * permissive ones: binary pprof first, JSON shapes next (heap snapshots, told by their first key, first) (0x files before the generic V8 and
 * trace shapes they resemble), then perf script, and folded stacks — which accepts almost any
 * `text 123` line — last.
 */
import type { Importer } from './importer';
import { pprofImporter } from './formats/pprof';
import { zeroExImporter } from './formats/zeroex';
import { cpuprofileImporter } from './formats/cpuprofile';
import { heapprofileImporter } from './formats/heapprofile';
import { heapsnapshotImporter } from './formats/heapsnapshot';
import { traceEventsImporter } from './formats/trace-events';
import { perfScriptImporter } from './formats/perf-script';
import { foldedImporter } from './formats/folded';

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
