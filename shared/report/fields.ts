/**
 * Writing a value into a report cell, for every report Flamelens makes (the app's exports and the
 * command line): names come from profile and trace files, anyone's, so each cell kind has one
 * writer that keeps a name from turning into something else.
 *
 * - CSV (RFC 4180): a field with a comma, quote or line break is quoted, quotes doubled. Text
 *   starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`: spreadsheets
 *   run such a cell as a formula (`=HYPERLINK(…)`), the attack OWASP calls CSV injection.
 * - Markdown table cells: plain text with the characters Markdown or a table reads escaped and
 *   line breaks flattened (`mdText`); names as code spans whose fence no backtick run inside can
 *   close (`mdCode`).
 */

/** A CSV field. Numbers are written plainly (12 significant digits, no separators); NaN and infinities as ''. */
export function csvField(v: string | number): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(Number(v.toPrecision(12))) : '';
  const s = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record, without its line end. */
export function csvRecord(fields: readonly (string | number)[]): string {
  return fields.map(csvField).join(',');
}

/** A CSV file: records ended by CRLF, as RFC 4180 has them. */
export function csvText(records: readonly (readonly (string | number)[])[]): string {
  return records.map(csvRecord).join('\r\n') + '\r\n';
}

/** Text for a Markdown table cell: pipes and Markdown punctuation escaped, line breaks flattened. */
export function mdText(s: string): string {
  return s.replace(/\r\n?|\n/g, ' ').replace(/([\\`*_[\]<>|#])/g, '\\$1');
}

/** A name as inline code in a Markdown table cell ('' for ''): pipes escaped, a fence longer than any backtick run in it. */
export function mdCode(s: string): string {
  if (s === '') return '';
  const t = s.replace(/\r\n?|\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((run) => run.length));
  if (longest === 0) return `\`${t}\``;
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${t} ${fence}`;
}
