/**
 * Names and paths from profile files are shown as they are, except for the characters that would
 * make them say something else: control characters (a newline in a function name would start a
 * line of its own in folded output, ESC sequences would drive a terminal, a bare CR would
 * overwrite what came before it) and the bidirectional controls that reorder text (U+202A–202E,
 * U+2066–2069: "Trojan Source"). Each is written as an escape that names it — `\n`, `\x1b`,
 * `\u202e` — so that a person sees it. Importers pass every name, file and label through here
 * (see `FrameTableBuilder.intern`), so every view and report shows the same visible text.
 */

const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HIDDEN_ALL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// (what a terminal must not be given as it is: all of the above but the line break)
const TERMINAL_HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const TERMINAL_HIDDEN_ALL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `s` with control and bidirectional-control characters written as visible escapes. */
export function visibleText(s: string): string {
  return HIDDEN.test(s) ? s.replace(HIDDEN_ALL, escapeOne) : s;
}

/** The same rule for text written to a terminal, line breaks kept: they end the output's lines. */
export function terminalText(s: string): string {
  return TERMINAL_HIDDEN.test(s) ? s.replace(TERMINAL_HIDDEN_ALL, escapeOne) : s;
}

const JSON_HIDDEN = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text for a terminal: `JSON.stringify` escapes C0 controls itself; DEL, C1 and the bidi
 * controls become `\u` escapes too, which JSON reads back as the same characters.
 */
export function terminalJson(json: string): string {
  return json.replace(JSON_HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
