// One graph view inside <div id="wikigen-graph" data-src="graph.json">: search box, sigma stage
// with the hull layer under it, side panel. V4 in the browser; nothing here writes anything back.
import Sigma from "sigma";
import { drawDiscNodeHover } from "sigma/rendering";

import { buildGraph, describeRelations, readDetails } from "./data.js";
import { h } from "./dom.js";
import { HullLayer } from "./hulls.js";
import { bandLabels, bandPositions, sortByLabel } from "./band.js";
import { CameraFit } from "./fit.js";
import { runLayout } from "./layout.js";
import { themeColors } from "./palette.js";
import { emptyPanel, showConcept } from "./panel.js";
import { EdgeSketch } from "./sketch.js";
import { Veil } from "./veil.js";
import { LabelCuller, labelFont } from "./labels.js";
import { LabelIndex, searchBox } from "./search.js";

const EMPTY_MESSAGE = "No concepts in this snapshot yet";
const FORCED_LABELS = 60; // above this many highlighted concepts, only the biggest get a label
const FLY_MS = 600;
const SMALL_GRAPH = 300;
const HOVER_LABEL = "#222222";
const STAGE_PADDING = 40; // px: room for the hulls' padding around the outermost nodes

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

async function fetchJson(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/** Create the view; returns the read-only API exposed as window.wikigenGraph. */
export function createApp(container) {
  const started = performance.now();
  let firstRenderMs = Number.NaN;
  let view = null; // set once the graph is drawn
  const deferred = () => {
    let resolve, reject;
    const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => {}); // a failed load is shown in the page; nobody has to await it
    return { promise, resolve, reject };
  };
  const ready = deferred();
  const settled = deferred();

  container.classList.add("wikigen-graph");
  const toolbar = h("div", { className: "wikigen-graph__toolbar" });
  const stage = h("div", { className: "wikigen-graph__stage" });
  const status = h("p", { className: "wikigen-graph__status", role: "status", text: "Loading the graph…" });
  const panel = h("aside", { className: "wikigen-graph__panel", "aria-label": "Concept details", "aria-live": "polite" });
  container.replaceChildren(toolbar, h("div", { className: "wikigen-graph__main" }, [stage, status]), panel);
  emptyPanel(panel);

  const firstFrame = async () => {
    await nextFrame();
    firstRenderMs = performance.now() - started;
    ready.resolve();
  };

  const fail = (message) => {
    status.textContent = message;
    status.classList.add("wikigen-graph__status--error");
    ready.reject(new Error(message));
    settled.reject(new Error(message));
  };

  (async () => {
    const src = container.dataset.src;
    if (!src) return fail("The graph element has no data-src attribute.");
    const url = new URL(src, document.baseURI);
    let json;
    try {
      json = await fetchJson(url);
      performance.mark("wikigen:parsed");
    } catch (error) {
      return fail(`Could not load the graph (${error.message}).`);
    }
    const data = buildGraph(json);
    performance.mark("wikigen:built");
    // A big graph's details (graph_files) are fetched after its first frame, which does not need them.
    const loadDetails = () => fetchJson(new URL(json.details, url)).then((found) => readDetails(data.graph, found));
    if (data.graph.order === 0) {
      // V3: a snapshot with no concepts still has a graph page, with a clear message.
      status.textContent = EMPTY_MESSAGE;
      status.classList.add("wikigen-graph__status--empty");
      container.classList.add("wikigen-graph--empty");
      settled.resolve();
      return firstFrame();
    }
    try {
      view = drawGraph({ container, stage, toolbar, panel, data, loadDetails, drawn: ready.promise, settled });
    } catch (error) {
      return fail(`Could not draw the graph (${error.message}); this page needs WebGL.`);
    }
    performance.mark("wikigen:drawn");
    status.remove();
    return firstFrame();
  })();

  const api = {
    ready: ready.promise,
    settled: settled.promise,
    get firstRenderMs() {
      return firstRenderMs;
    },
    focus: (id) => view?.focus(id, { fly: true }) ?? false,
    highlighted: () => view?.highlighted() ?? [],
    search: (text) => view?.search(text) ?? null,
    clientPosition: (id) => view?.clientPosition(id) ?? null,
    labels: () => view?.labels() ?? [],
    discs: () => view?.discs() ?? [],
    color: (id) => view?.color(id) ?? null,
    kill: () => view?.kill(),
    get container() {
      return container;
    },
  };
  return Object.freeze(api);
}

/**
 * loadDetails: a promise of { concepts, relations } (data.js), called when graphData has none;
 * drawn: resolves on the first frame. `settled` waits for the edges and the details too.
 */
function drawGraph({ container, stage, toolbar, panel, data: graphData, loadDetails, drawn, settled }) {
  const { graph, needsLayout, components, isolated } = graphData;
  if (graphData.addEdges && needsLayout) graphData.addEdges(); // ForceAtlas2 needs them
  let details = graphData.details; // null until a big graph's details come
  let detailsProblem = null;
  let colors = themeColors(container);
  // set: the highlighted nodes (active node and its neighbours); edges: the edges touching it.
  const state = { hovered: null, focused: null, active: null, set: null, edges: null, hoveredEdge: null };
  const culler = new LabelCuller();

  performance.mark("wikigen:sigma-start");
  const renderer = new Sigma(graph, stage, {
    allowInvalidContainer: true,
    renderEdgeLabels: false, // predicates are shown on edge hover instead
    enableEdgeEvents: true,
    hideEdgesOnMove: graph.size > 10000,
    labelColor: { color: colors.label },
    defaultDrawNodeLabel: culler.drawer(),
    defaultEdgeColor: colors.edge,
    // sigma's hover label sits on a white box: keep its text dark in the dark theme too.
    defaultDrawNodeHover: (context, data, settings) =>
      drawDiscNodeHover(context, data, { ...settings, labelColor: { color: HOVER_LABEL } }),
    // Small graphs label every node; large ones only nodes big enough on screen.
    labelRenderedSizeThreshold: graph.order <= SMALL_GRAPH ? 0 : 6,
    labelDensity: graph.order <= SMALL_GRAPH ? 3 : 1,
    // Zoomed in, nodes grow at most twice (sigma's default, the square root, has no bound).
    zoomToSizeRatioFunction: (ratio) => Math.sqrt(Math.max(ratio, 0.25)),
    stagePadding: STAGE_PADDING,
    minCameraRatio: 0.005,
    maxCameraRatio: 4,
    // sigma hands the reducer a fresh copy of the attributes, so it may change it in place. The
    // one-hop highlight is not a reducer: it is drawn on the veil (veil.js).
    edgeReducer(edge, data) {
      if (edge === state.hoveredEdge) data.color = colors.focusEdge;
      return data;
    },
  });

  performance.mark("wikigen:sigma");
  culler.attach(renderer);
  culler.halo = colors.halo;
  // The band of isolated concepts decides which of its labels a frame shows (band.js).
  let band = { pitch: 0, hidden: () => false };
  let rowPx = null; // how far apart the band's rows are on this frame, in pixels
  renderer.on("beforeRender", () => (rowPx = null));
  culler.hidden = (id) => {
    if (band.pitch === 0) return false;
    if (rowPx === null) {
      const a = renderer.graphToViewport({ x: 0, y: 0 });
      const b = renderer.graphToViewport({ x: 0, y: band.pitch });
      rowPx = Math.hypot(a.x - b.x, a.y - b.y);
    }
    return band.hidden(id, rowPx);
  };
  let maxSize = 0;
  graph.forEachNode((_, { size }) => (maxSize = Math.max(maxSize, size)));
  const fit = new CameraFit(renderer, culler, maxSize);
  // The camera is fitted to the labels until the reader moves it (wheel, drag, a search).
  let cameraTaken = false;
  const takeCamera = () => {
    cameraTaken = true;
    fit.cancel();
  };
  for (const type of ["wheel", "mousedown", "touchstart"]) stage.addEventListener(type, takeCamera, { passive: true });
  const fitCamera = () => (cameraTaken ? Promise.resolve() : fit.request());

  // The stage in pixels, for the band of isolated concepts (band.js); label widths measured once.
  const widths = new Map();
  const measuring = document.createElement("canvas").getContext("2d");
  const frame = () => {
    const { width, height } = renderer.getDimensions();
    measuring.font = labelFont(renderer.getSettings());
    return {
      width,
      height,
      // sigma fits the nodes in the stage less its padding on the shorter side, less that padding
      // scaled by the stage's aspect on the longer one
      padX: STAGE_PADDING * Math.max(1, width / Math.max(height, 1)),
      padY: STAGE_PADDING * Math.max(1, height / Math.max(width, 1)),
      labelWidth(id) {
        if (!widths.has(id)) widths.set(id, measuring.measureText(graph.getNodeAttribute(id, "label")).width);
        return widths.get(id);
      },
      size: (id) => graph.getNodeAttribute(id, "size"),
    };
  };
  const hulls = new HullLayer(renderer, components, colors.hull);
  let sketch = graphData.addEdges && !needsLayout ? new EdgeSketch(renderer, graphData.sketch, colors.edge) : null;
  const tooltip = h("div", { className: "wikigen-graph__tooltip", role: "tooltip" });
  tooltip.hidden = true;
  stage.append(tooltip);

  // One-hop highlight (V4), drawn on the veil: sigma redraws nothing, so its cost follows the
  // highlighted neighbourhood, not the graph.
  const veil = new Veil(renderer, colors, FORCED_LABELS);
  const applyHighlight = () => {
    const active = state.hovered ?? state.focused;
    if (active === state.active) return;
    state.active = active;
    state.set = active ? new Set([active, ...graph.neighbors(active)]) : null;
    state.edges = active ? graph.edges(active) : null;
    if (active) veil.show(active, state.set, state.edges);
    else veil.hide();
  };

  const fly = (id) => {
    const data = renderer.getNodeDisplayData(id);
    if (!data) return;
    takeCamera();
    const camera = renderer.getCamera();
    const target = Math.max(0.02, Math.min(1, 4 / Math.sqrt(graph.order)));
    camera.animate({ x: data.x, y: data.y, ratio: Math.min(camera.getState().ratio, target) }, { duration: FLY_MS });
  };

  const focus = (id, { fly: flyTo = false } = {}) => {
    if (id === null || id === undefined) {
      state.focused = null;
      emptyPanel(panel);
      applyHighlight();
      return true;
    }
    if (!graph.hasNode(id)) return false;
    state.focused = id;
    showFocused();
    applyHighlight();
    if (flyTo) fly(id);
    return true;
  };

  function showFocused() {
    const onFocus = (other) => focus(other, { fly: true });
    showConcept(panel, graph, details, state.focused, onFocus, detailsProblem ?? undefined);
  }
  // A big graph's edges go into graphology and sigma after the first frame (the sketch drew them),
  // from the next frame on, so that the first one is painted first.
  const edgesIn = !sketch
    ? Promise.resolve()
    : drawn.then(nextFrame).then(() => {
        // sigma indexes each edge twice as it is added (its edgeAdded handler); once, after, instead.
        renderer.unbindGraphHandlers();
        graphData.addEdges();
        renderer.bindGraphHandlers();
        sketch.remove();
        sketch = null;
        renderer.refresh();
        // A highlight shown before (a hover, a focus) gets its neighbours now.
        state.active = null;
        applyHighlight();
        if (state.focused !== null) showFocused();
      });
  const detailsLoaded = graphData.details ? Promise.resolve(graphData.details) : edgesIn.then(loadDetails);
  const detailsSettled = detailsLoaded.then(
    (found) => {
      details = found;
      if (state.focused !== null) showFocused();
    },
    (error) => {
      detailsProblem = `Could not load its details (${error.message}).`;
      if (state.focused !== null) showFocused();
    },
  );

  const index = new LabelIndex(graph);
  const search = (text) => {
    const id = index.best(text);
    if (id !== null) focus(id, { fly: true });
    return id;
  };
  toolbar.append(searchBox(index, (id) => focus(id, { fly: true })));

  renderer.on("enterNode", ({ node }) => {
    state.hovered = node;
    stage.classList.add("wikigen-graph__stage--pointer");
    applyHighlight();
  });
  renderer.on("leaveNode", () => {
    state.hovered = null;
    stage.classList.remove("wikigen-graph__stage--pointer");
    applyHighlight();
  });
  renderer.on("clickNode", ({ node }) => focus(node));
  renderer.on("clickStage", () => focus(null));

  // Edge hover: every relation of the aggregated edge, with its direction and predicate (V2).
  const repaintEdge = (edge) => renderer.refresh({ partialGraph: { edges: [edge] }, skipIndexation: true });
  renderer.on("enterEdge", ({ edge, event }) => {
    state.hoveredEdge = edge;
    const lines = details ? describeRelations(graph, details.relations.get(edge)) : ["…"];
    tooltip.replaceChildren(...lines.map((line) => h("div", { text: line })));
    tooltip.style.transform = `translate(${event.x + 14}px, ${event.y + 14}px)`;
    tooltip.hidden = false;
    repaintEdge(edge);
  });
  renderer.on("leaveEdge", ({ edge }) => {
    state.hoveredEdge = null;
    tooltip.hidden = true;
    repaintEdge(edge);
  });

  // Only a real change of size: the observer's first call (the size sigma started with) would
  // re-process the whole graph once more at start-up.
  let size = `${stage.clientWidth}x${stage.clientHeight}`;
  const resizeObserver = new ResizeObserver(() => {
    const now = `${stage.clientWidth}x${stage.clientHeight}`;
    if (now === size) return;
    size = now;
    renderer.scheduleRefresh();
  });
  resizeObserver.observe(stage);
  const themeObserver = new MutationObserver(() => {
    colors = themeColors(container);
    culler.halo = colors.halo;
    veil.colors = colors;
    hulls.color = `rgb(${colors.hull})`;
    if (sketch) sketch.color = colors.edge;
    hulls.update(graph);
    renderer.setSettings({ labelColor: { color: colors.label }, defaultEdgeColor: colors.edge });
  });
  themeObserver.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  let layout = null;
  if (needsLayout) {
    layout = runLayout(
      graph,
      (placed) => {
        band = bandLabels(graph, placed);
        hulls.update(graph);
        fitCamera();
      },
      frame,
    );
    Promise.all([layout.done.then(fitCamera), detailsSettled]).then(() => settled.resolve());
  } else {
    band = bandLabels(graph, placeBand(graph, frame(), isolated));
    hulls.update(graph);
    Promise.all([fitCamera(), detailsSettled]).then(() => settled.resolve());
  }

  return {
    focus,
    search,
    highlighted: () => (state.set ? [...state.set].sort() : []),
    // The labels drawn on the last frame, as boxes in CSS pixels of the stage.
    // While a concept is highlighted, the labels on the veil.
    labels: () =>
      (state.set ? veil.boxes() : culler.boxes).map(({ id, label, side, x0, y0, x1, y1 }) => ({ id, label, side, x0, y0, x1, y1 })),
    // Every node's disc on the last frame, in CSS pixels of the stage.
    discs: () =>
      graph.mapNodes((id) => {
        const data = renderer.getNodeDisplayData(id);
        const p = renderer.framedGraphToViewport(data);
        return { id, x: p.x, y: p.y, r: renderer.scaleSize(data.size) };
      }),
    color: (id) => (graph.hasNode(id) ? graph.getNodeAttribute(id, "color") : null),
    clientPosition(id) {
      const data = renderer.getNodeDisplayData(id);
      if (!data) return null;
      const point = renderer.framedGraphToViewport(data);
      const box = stage.getBoundingClientRect();
      return { x: box.left + point.x, y: box.top + point.y };
    },
    kill() {
      layout?.stop();
      resizeObserver.disconnect();
      themeObserver.disconnect();
      renderer.kill();
    },
  };
}

/**
 * Positions shipped in graph.json: the isolated concepts are set out again in the band readable at
 * the default zoom when it fits (band.js); otherwise the build's band stays. Returns the band.
 */
function placeBand(graph, frame, isolatedConcept) {
  const isolated = sortByLabel(graph, graph.filterNodes(isolatedConcept));
  if (isolated.length === 0) return { isolated, positions: new Map(), readable: false };
  const connected = [];
  graph.forEachNode((id, { x, y }) => {
    if (!isolatedConcept(id)) connected.push({ id, x, y });
  });
  const band = bandPositions(connected, isolated, frame);
  if (band.readable) {
    for (const [id, { x, y }] of band.positions) graph.mergeNodeAttributes(id, { x, y });
    return { isolated, ...band };
  }
  const positions = new Map(isolated.map((id) => [id, graph.getNodeAttributes(id)]));
  return { isolated, positions, readable: false };
}
