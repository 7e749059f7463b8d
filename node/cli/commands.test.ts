/**
 * The table of commands: what `flamelens` dispatches to, lists and prints help for is the table's,
 * and a command writes only to the output it is given.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Captured, capture } from '../../test/support/cli-output';
import { fixturePath } from '../../test/support/files';
import { helpText } from './command';
import { COMMANDS, findCommand } from './commands';
import { main } from './index';

vi.mock('../server/open', () => ({ openInBrowser: vi.fn() }));

const run = (...args: string[]): Promise<Captured> => capture((out) => main(args, out));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

afterEach(() => vi.restoreAllMocks());

describe('the table of commands', () => {
  it('holds each command once, by the name its help gives', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(['open', 'collapse', 'info', 'diff', 'heatmap', 'heap', 'stats', 'record']);
    for (const c of COMMANDS) {
      expect(c.help.name).toBe(c.name);
      expect(findCommand(c.name)).toBe(c);
    }
    expect(findCommand('help')).toBeUndefined();
  });

  it('is what --help lists and what help NAME and NAME --help print', async () => {
    const list = await run('--help');
    expect(list.code).toBe(0);
    const width = Math.max(...COMMANDS.map((c) => c.name.length));
    const listed = [...list.out.matchAll(/^ {2}(\S+) +(.*)$/gm)].map((m) => m[1]);
    expect(listed).toEqual([...COMMANDS.map((c) => c.name), 'help']);
    for (const c of COMMANDS) {
      expect(list.out).toContain(`\n  ${c.name.padEnd(width)}  ${c.help.summary}\n`);
      const help = await run('help', c.name);
      expect(help).toEqual({ code: 0, out: helpText(c.help), err: '' });
      const own = await run(c.name, '--help');
      expect(own.code).toBe(0);
      expect(own.err).toBe('');
      expect(own.out).toMatch(new RegExp(`^Usage: ${escape(c.help.synopsis)}\n\n`));
      expect(own.out.endsWith(c.help.details)).toBe(true);
    }
  });

  it('names every command of the table when the command is unknown', async () => {
    const r = await run('frobnicate', 'x');
    expect(r).toEqual({
      code: 1,
      out: '',
      err: 'flamelens: unknown command "frobnicate". Commands: open, collapse, info, diff, heatmap, heap, stats, record (flamelens --help)\n',
    });
  });
});

describe('what a command writes', () => {
  const cpu = (side: string, file: string) => fixturePath(`samples/${side}/${file}`);
  const BASE = cpu('baseline', 'CPU.20261121.233005.6118.0.001.cpuprofile');
  const RUN = cpu('ddtrace', 'CPU.20261121.233052.6494.0.001.cpuprofile');

  it("goes to the output it is given, standard output and error alike, never to the process's", async () => {
    const leaked: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((s) => (leaked.push(String(s)), true));
    // a report on stdout and the --fail-above verdict on stderr
    const gate = await run('diff', BASE, RUN, '--fail-above', '1');
    expect(gate.code).toBe(2);
    expect(gate.out).toMatch(/^\+\d+(\.\d+)?% CPU time for the same work\n/);
    expect(gate.err).toMatch(/\nflamelens: the run's total is [\d.]+% over the baseline's .*more than --fail-above 1%\n$/);
    // warnings that the runs do not compare
    const warned = await run('diff', cpu('baseline', 'perf.F999.script.txt.gz'), cpu('ddtrace', 'perf.script.txt'), '--top', '1');
    expect(warned.code).toBe(0);
    expect(warned.err).toMatch(/^flamelens: warning: the runs were sampled at different intervals/m);
    // what a command says about the thread it read
    const thread = await run('collapse', '--thread', 'all', cpu('baseline', 'node_trace.1.log.gz'));
    expect(thread.err).toMatch(/--thread all: the file has one thread \(or none\) with samples; all of it was read\n$/);
    expect(thread.out).not.toBe('');
    for (const args of [['info', BASE], ['heatmap', BASE], ['--version'], ['nope']]) {
      const r = await run(...args);
      expect(r.out + r.err).not.toBe('');
    }
    expect(leaked).toEqual([]);
  });
});
