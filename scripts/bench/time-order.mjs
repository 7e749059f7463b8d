// The time-order view in the redraw benchmark (scripts/bench/redraw.mjs): its first draw (the
// tab opened from the flamegraphs), a range picked on its overview, and a wheel zoom, each timed
// from the event until every lane has drawn (`flamelens:draw`) and the next frame is painted.

/** Scripts the interactions run in the page; `i` varies what they pick. */
export const TIME_ORDER_ACTIONS = {
  flamegraphs: () => `window.dispatchEvent(new KeyboardEvent('keydown',{key:'1'}))`,
  'time-open': () => `window.dispatchEvent(new KeyboardEvent('keydown',{key:'5'}))`,
  // a drag across a fifth of the overview, a little further along each time
  'time-range': (i) => `const m=document.querySelector('.timeorder-minimap');const r=m.getBoundingClientRect();
    const at=(f)=>({clientX:r.left+r.width*f,clientY:r.top+r.height/2,bubbles:true,pointerId:1,isPrimary:true});
    m.dispatchEvent(new PointerEvent('pointerdown',at(${0.1 + 0.05 * i})));
    m.dispatchEvent(new PointerEvent('pointermove',at(${0.3 + 0.05 * i})));
    m.dispatchEvent(new PointerEvent('pointerup',at(${0.3 + 0.05 * i})));`,
  // the wheel over the middle of the first lane: in, then out
  'time-zoom': (i) => `const c=document.querySelector('.timeorder-chart canvas');const r=c.getBoundingClientRect();
    c.dispatchEvent(new WheelEvent('wheel',{deltaY:${i % 2 === 0 ? -300 : 300},clientX:r.left+r.width/2,clientY:r.top+8,bubbles:true,cancelable:true}));`,
};

/**
 * Runs the time-order interactions `repeat` times with `run(what, i)` (which times a script of
 * `TIME_ORDER_ACTIONS` until every pane or lane has drawn); returns their timings by name.
 */
export async function timeOrderRounds(run, repeat) {
  const results = { 'time-open': [], 'time-range': [], 'time-zoom': [] };
  for (let i = 0; i < repeat; i++) {
    // back to the flamegraphs (untimed), so that the tab's first draw is timed each round
    await run('flamegraphs', i);
    results['time-open'].push(await run('time-open', i));
    results['time-range'].push(await run('time-range', i));
    results['time-zoom'].push(await run('time-zoom', i));
  }
  return results;
}
