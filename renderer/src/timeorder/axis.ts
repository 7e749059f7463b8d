/**
 * Each run's time axis (`shared/view/time-order.ts`), made once per profile shown: a pane whose
 * thread picker shows another thread has another profile, and so its own axis.
 */
import type { Profile } from '../../../shared/model/types';
import { type NoTimeAxis, type TimeAxis, timeAxis } from '../../../shared/view/time-order';
import { idleNodes } from '../../../shared/heatmap/idle';

const axes = new WeakMap<Profile, TimeAxis | NoTimeAxis>();

export function axisFor(p: Profile): TimeAxis | NoTimeAxis {
  let a = axes.get(p);
  if (!a) axes.set(p, (a = timeAxis(p, idleNodes(p))));
  return a;
}

/** A window of the shared axis: µs from each run's start. */
export interface Window {
  t0: number;
  t1: number;
}

/** The window `w` zoomed by `factor` (below 1: in) around `at`, kept within [0, span]. */
export function zoomed(w: Window, at: number, factor: number, span: number): Window {
  const width = Math.min(span, Math.max(10, (w.t1 - w.t0) * factor));
  const f = (at - w.t0) / (w.t1 - w.t0);
  return clamp({ t0: at - f * width, t1: at - f * width + width }, span);
}

/** The window `w` moved by `dt` µs, kept within [0, span]. */
export function panned(w: Window, dt: number, span: number): Window {
  return clamp({ t0: w.t0 + dt, t1: w.t1 + dt }, span);
}

function clamp(w: Window, span: number): Window {
  const width = Math.min(w.t1 - w.t0, span);
  const t0 = Math.max(0, Math.min(w.t0, span - width));
  return { t0, t1: t0 + width };
}
