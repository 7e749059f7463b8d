#!/usr/bin/env node
// Summarizes a fuzz report (FLAMELENS_FUZZ_REPORT=file, one JSON line per property) as a
// Markdown table: cases per format and property, how many ended in a profile and how many in a
// clear error, the bytes tried, the slowest case, and any failure.
//   FLAMELENS_FUZZ_REPORT=fuzz.jsonl npm run fuzz; node scripts/fuzz-summary.mjs fuzz.jsonl
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) throw new Error('usage: node scripts/fuzz-summary.mjs REPORT.jsonl');
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

const fmt = (n) => n.toLocaleString('en-US');
const mb = (b) => `${(b / 1e6).toFixed(b < 1e7 ? 1 : 0)} MB`;
let cases = 0;
let profiles = 0;
let errors = 0;
let other = 0;
let bytes = 0;
console.log('| format / property | cases | profiles | clear errors | other | bytes tried | slowest case |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows.sort((a, b) => a.property.localeCompare(b.property))) {
  let p = 0;
  let e = 0;
  let o = 0;
  for (const [kind, n] of Object.entries(r.outcomes)) {
    if (kind.startsWith('profile')) p += n;
    else if (kind.startsWith('error:')) e += n;
    else o += n;
  }
  cases += r.runs;
  profiles += p;
  errors += e;
  other += o;
  bytes += r.bytes ?? 0;
  console.log(`| ${r.property} | ${fmt(r.runs)} | ${fmt(p)} | ${fmt(e)} | ${fmt(o)} | ${mb(r.bytes ?? 0)} | ${fmt(r.slowest?.ms ?? 0)} ms |`);
}
console.log(`| **all** | **${fmt(cases)}** | ${fmt(profiles)} | ${fmt(errors)} | ${fmt(other)} | ${mb(bytes)} | |`);
const kinds = new Set(rows.flatMap((r) => Object.keys(r.outcomes).filter((k) => !k.startsWith('profile') && !k.startsWith('error:'))));
if (kinds.size > 0) console.log(`\nOutcomes that are neither a profile nor a clear error: ${[...kinds].join(', ')}`);
