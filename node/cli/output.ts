/**
 * What the command line writes: names and paths come from files anyone may have made, so text
 * goes out with control and bidirectional-control characters as visible escapes (a name cannot
 * move the cursor, change the terminal's title or hide text), line breaks kept; JSON with the
 * same characters as `\u` escapes, which read back as what the file held.
 */
import { terminalJson, terminalText } from '../../shared/model/visible-text';

export function writeText(stream: NodeJS.WritableStream, text: string): void {
  stream.write(terminalText(text));
}

export function writeJson(stream: NodeJS.WritableStream, json: string): void {
  stream.write(terminalJson(json));
}
