// ForceAtlas2 in its web worker, from the seeded start positions, stopped after a bounded number of
// iterations or a bounded time, whichever comes first. The layout is visual only (V4): positions
// stay in the page and are never written back.
import { inferSettings } from "graphology-layout-forceatlas2";
import FA2Layout from "graphology-layout-forceatlas2/worker";

const MAX_ITERATIONS = 500;

function maxMilliseconds(order) {
  return Math.min(1500 + order / 4, 8000);
}

/**
 * Start the layout. onStep is called (throttled by the caller) after each batch of iterations.
 * Returns { done: Promise<void>, stop() }.
 */
export function runLayout(graph, onStep) {
  const layout = new FA2Layout(graph, {
    settings: { ...inferSettings(graph), slowDown: 5 },
    getEdgeWeight: "weight",
  });
  let iterations = 0;
  let stopped = false;
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    graph.off("eachNodeAttributesUpdated", step);
    layout.kill(); // terminates the worker
    finish();
  };
  // The supervisor writes each result with one updateEachNodeAttributes call: one event per batch.
  const step = () => {
    iterations += 1;
    onStep?.();
    if (iterations === MAX_ITERATIONS) {
      // Exactly MAX_ITERATIONS batches, so a small graph always gets the same layout; the worker
      // is killed later, not from inside the supervisor's own message handler (that breaks it).
      layout.stop();
      setTimeout(stop, 0);
    }
  };
  graph.on("eachNodeAttributesUpdated", step);
  const timer = setTimeout(stop, maxMilliseconds(graph.order));
  layout.start();
  return { done, stop };
}
