import { beforeEach, describe, expect, it } from 'vitest';
import { folded } from '../../../test/support/folded';
import { useStore } from './store';

const initial = useStore.getState();
const CPU_OTEL = 'CPU.20261121.233052.6494.0.001.cpuprofile';
const CPU_BASE = 'CPU.20261121.233005.6118.0.001.cpuprofile';

const titles = () => useStore.getState().runs.map((r) => r.title);
const baselineTitle = () => useStore.getState().runs.find((r) => r.id === useStore.getState().baselineId)?.title;

beforeEach(() => useStore.setState(initial, true));

describe('run titles and the baseline', () => {
  it('names runs by their folders and finds the baseline whatever the order (otel, then baseline)', () => {
    const s = useStore.getState();
    s.runAdded('a', CPU_OTEL, `/home/ana/runs/otel/${CPU_OTEL}`);
    s.runAdded('b', CPU_BASE, `/home/ana/runs/baseline/${CPU_BASE}`);
    expect(titles()).toEqual(['otel', 'baseline']);
    expect(useStore.getState().baselineId).toBe('b');
  });

  it('re-derives the names as runs arrive and leave', () => {
    const s = useStore.getState();
    s.runAdded('a', CPU_OTEL, `C:\\runs\\otel\\${CPU_OTEL}`);
    expect(titles()).toEqual(['otel']);
    s.runAdded('b', CPU_OTEL, `C:\\runs\\ddtrace\\${CPU_OTEL}`);
    s.runAdded('c', CPU_OTEL, `C:\\runs\\ddtrace\\${CPU_OTEL}`);
    expect(titles()).toEqual(['otel', 'ddtrace', 'ddtrace (2)']);
    useStore.getState().runRemoved('c');
    expect(titles()).toEqual(['otel', 'ddtrace']);
  });

  it('keeps a title the user gave while the others follow the paths; an empty title gives the derived one back', () => {
    const s = useStore.getState();
    s.runAdded('a', CPU_OTEL, `/r/otel/${CPU_OTEL}`);
    s.runRenamed('a', 'OpenTelemetry 1.30');
    s.runAdded('b', CPU_BASE, `/r/baseline/${CPU_BASE}`);
    expect(titles()).toEqual(['OpenTelemetry 1.30', 'baseline']);
    useStore.getState().runRenamed('a', '  ');
    expect(titles()).toEqual(['otel', 'baseline']);
  });

  it('keeps the baseline the user chose when a run named baseline arrives', () => {
    const s = useStore.getState();
    s.runAdded('a', CPU_OTEL, `/r/otel/${CPU_OTEL}`);
    s.runAdded('b', CPU_OTEL, `/r/newrelic/${CPU_OTEL}`);
    expect(useStore.getState().baselineId).toBe('a');
    useStore.getState().baselineChosen('b');
    useStore.getState().runAdded('c', CPU_BASE, `/r/baseline/${CPU_BASE}`);
    expect(baselineTitle()).toBe('newrelic');
  });

  it('names a dropped file by its name, without a path', () => {
    useStore.getState().runAdded('a', 'server-otel.cpuprofile');
    useStore.getState().runAdded('b', 'server-before.cpuprofile');
    expect(titles()).toEqual(['server-otel.cpuprofile', 'server-before.cpuprofile']);
    expect(baselineTitle()).toBe('server-before.cpuprofile');
  });

  it('a cancelled import leaves no pane and no undo step', () => {
    const s = useStore.getState();
    s.runAdded('a', CPU_BASE, `/r/baseline/${CPU_BASE}`);
    s.runAdded('b', CPU_OTEL, `/r/otel/${CPU_OTEL}`);
    useStore.getState().importCancelled('b');
    expect(titles()).toEqual(['baseline']);
    useStore.getState().annotationsUndone();
    expect(titles()).toEqual(['baseline']);
  });
});

describe('removing a run is undoable', () => {
  async function twoRuns() {
    const s = useStore.getState();
    s.runAdded('a', CPU_OTEL, `/r/otel/${CPU_OTEL}`);
    s.runAdded('b', CPU_BASE, `/r/base/${CPU_BASE}`);
    s.runAdded('c', CPU_OTEL, `/r/ddtrace/${CPU_OTEL}`);
    for (const id of ['a', 'b', 'c']) useStore.getState().runLoaded(id, await folded(`main;work ${id.charCodeAt(0)}`));
  }

  it('one undo brings back the run with its profile, place, baseline status, range, title and notes; redo removes it again', async () => {
    await twoRuns();
    const s = useStore.getState();
    s.runRenamed('b', 'no agent');
    s.rangeSelected('b', { start: 1, end: 2 });
    s.baselineChosen('b');
    s.annotationAdded({ kind: 'note', text: 'only here', anchor: { keyPath: ['main'] }, runId: 'b' });
    s.annotationAdded({ kind: 'note', text: 'everywhere', anchor: { keyPath: ['main'] } });
    const before = useStore.getState();
    const profile = before.runs[1]!.profile;

    useStore.getState().runRemoved('b');
    let now = useStore.getState();
    expect(now.runs.map((r) => r.id)).toEqual(['a', 'c']);
    expect(now.baselineId).not.toBe('b');
    expect(now.ranges.b).toBeUndefined();
    expect(now.annotationHistory.present.items.map((n) => n.text)).toEqual(['everywhere']);

    now.annotationsUndone();
    now = useStore.getState();
    expect(now.runs.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(now.runs[1]!.profile).toBe(profile);
    expect(now.runs[1]!.title).toBe('no agent');
    expect(now.baselineId).toBe('b');
    expect(now.userChoseBaseline).toBe(true);
    expect(now.ranges.b).toEqual({ start: 1, end: 2 });
    expect(now.annotationHistory.present.items.map((n) => n.text)).toEqual(['only here', 'everywhere']);

    now.annotationsRedone();
    now = useStore.getState();
    expect(now.runs.map((r) => r.id)).toEqual(['a', 'c']);
    expect(now.annotationHistory.present.items.map((n) => n.text)).toEqual(['everywhere']);
    now.annotationsUndone();
    expect(useStore.getState().runs.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('is an undo step even when no note goes with the run, in order with note steps', async () => {
    await twoRuns();
    useStore.getState().runRemoved('a');
    useStore.getState().annotationAdded({ kind: 'note', text: 'later', anchor: { keyPath: ['main'] } });
    expect(titles()).toEqual(['base', 'ddtrace']);
    useStore.getState().annotationsUndone(); // the note
    expect(titles()).toEqual(['base', 'ddtrace']);
    expect(useStore.getState().annotationHistory.present.items).toEqual([]);
    useStore.getState().annotationsUndone(); // the removal
    expect(titles()).toEqual(['otel', 'base', 'ddtrace']);
    expect(baselineTitle()).toBe('base');
  });

  it('forgets removals that undo can no longer reach', async () => {
    await twoRuns();
    useStore.getState().runRemoved('a');
    useStore.getState().annotationsUndone();
    useStore.getState().runRemoved('c');
    expect(useStore.getState().removedRuns.map((r) => r.run.id)).toEqual(['c']);
  });
});

describe('a run of several repeats', () => {
  it('draws the mean, shows one repeat alone on request and the mean again, clearing a range picked on the other', async () => {
    const s = useStore.getState();
    s.runAdded('v', 'agent', '/r/agent');
    const repeats = { profiles: [await folded('main;f 2'), await folded('main;f 4')], names: ['1.folded', '2.folded'], failed: [] };
    const mean = await folded('main;f 3');
    s.runLoaded('v', mean, undefined, repeats);
    const run = () => useStore.getState().runs[0]!;
    expect(run().profile).toBe(mean);
    expect(run().repeats?.mean).toBe(mean);
    expect(run().repeat).toBeUndefined();

    useStore.getState().rangeSelected('v', { start: 1, end: 2 });
    useStore.getState().repeatChosen('v', 1);
    expect(run().profile).toBe(repeats.profiles[1]);
    expect(run().repeat).toBe(1);
    expect(useStore.getState().ranges.v).toBeUndefined();

    useStore.getState().repeatChosen('v', 5);
    expect(run().repeat).toBe(1);
    useStore.getState().repeatChosen('v', undefined);
    expect(run().profile).toBe(mean);
    expect(run().repeat).toBeUndefined();
  });
});
