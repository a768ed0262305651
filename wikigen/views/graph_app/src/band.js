// The band of isolated concepts (issue 13.4): concepts with no relation are not scattered among
// the others but set out A to Z, top to bottom then column by column, beside the connected part.
//
// Where the band can be read at the default zoom (few enough concepts for its columns to take at
// most BAND_SHARE of the stage), it is laid out in pixels of that zoom: rows PITCH apart (more than
// a label's height, so no row loses its label to a neighbour), columns as wide as their longest
// label, and a gap after the connected part as wide as its labels reach. Its labels are then always
// drawn (forceLabel; the label culler still keeps them off other labels and nodes). A bigger band is
// laid out in graph units, denser: at the default zoom only the first concept of each letter has its
// label (an A–Z index, never a column of rows with every other label culled), and every row gets
// its label once one has zoomed in so far that the rows are PITCH apart (labelHidden).

export const PITCH = 20; // px between two rows at the default zoom; a 14px label's ink is about 14px tall
const COLUMN_GAP = 18; // px between a column's longest label and the next column
const GAP = 3; // px between a disc and its label (labels.js)
const BAND_SHARE = 0.6; // at most this share of the stage's width for the gap and the band
const MAX_COLUMNS = 4;

function extent(points) {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const { x, y } of points) {
    minX = Math.min(minX, x); maxX = Math.max(maxX, x);
    minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  if (minX === Infinity) return { minX: 0, maxX: 0, minY: 0, maxY: 0 };
  return { minX, maxX, minY, maxY };
}

/**
 * The band laid out in pixels of the default zoom, or null when it cannot be read there.
 * connected: [{ id, x, y }] in graph units; isolated: ids, A to Z; frame: { width, height, padX,
 * padY, labelWidth(id), size(id) } in pixels.
 */
function readableBand(connected, isolated, frame) {
  const availW = frame.width - 2 * frame.padX;
  const availH = frame.height - 2 * frame.padY;
  const maxRows = Math.floor(availH / PITCH);
  if (maxRows < 1 || availW <= 0) return null;
  const columns = Math.ceil(isolated.length / maxRows);
  if (columns > MAX_COLUMNS) return null; // do not measure a band that cannot fit
  const rows = Math.ceil(isolated.length / columns);
  const widths = [];
  for (let c = 0; c < columns; c++) {
    let widest = 0;
    for (const id of isolated.slice(c * rows, (c + 1) * rows)) {
      widest = Math.max(widest, 2 * frame.size(id) + GAP + frame.labelWidth(id));
    }
    widths.push(widest + (c < columns - 1 ? COLUMN_GAP : 0));
  }
  const band = widths.reduce((a, b) => a + b, 0);

  const { minX, maxX, minY, maxY } = extent(connected);
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  // How far right of the rightmost node the connected part's labels reach, at scale k (px per unit).
  const reach = (k) => {
    let most = 0;
    for (const node of connected) {
      most = Math.max(most, frame.size(node.id) + GAP + frame.labelWidth(node.id) - (maxX - node.x) * k);
    }
    return most;
  };
  let k = 1;
  let gap = COLUMN_GAP;
  if (connected.length > 0 && (spanX > 0 || spanY > 0)) {
    // k and the gap depend on each other; a few rounds settle them (the gap only shrinks as k does).
    k = Infinity;
    for (let round = 0; round < 4; round++) {
      const room = availW - gap - band;
      if (room <= 0) return null;
      k = Math.min(spanX > 0 ? room / spanX : Infinity, spanY > 0 ? availH / spanY : Infinity);
      gap = Math.max(reach(k), 0) + COLUMN_GAP;
    }
  } else if (connected.length > 0) {
    gap = reach(k) + COLUMN_GAP;
  }
  if (gap + band > BAND_SHARE * availW) return null;

  const positions = new Map();
  const left = maxX + gap / k;
  const top = (minY + maxY) / 2 + ((rows - 1) / 2) * (PITCH / k);
  let columnLeft = left;
  isolated.forEach((id, i) => {
    const c = Math.floor(i / rows);
    if (i % rows === 0 && c > 0) columnLeft += widths[c - 1] / k;
    positions.set(id, { x: columnLeft + frame.size(id) / k, y: top - (i % rows) * (PITCH / k) });
  });
  return positions;
}

/**
 * The isolated concepts in columns to the right of the laid-out ones, in label order, top to
 * bottom; a column is as tall as the laid-out part (at least the square root of their number).
 */
function denseBand(connected, isolated) {
  const band = new Map();
  const { minX, maxX, minY, maxY } = extent(connected);
  // The mean distance between laid-out concepts sets the band's grid.
  const spacing = Math.max(maxX - minX, maxY - minY, 1) / Math.max(Math.sqrt(connected.length), 1);
  // Half the mean distance: a band that keeps the connected part the larger share of the page.
  const step = spacing / 2;
  const rows = Math.max(Math.ceil((maxY - minY) / step) + 1, Math.ceil(Math.sqrt(isolated.length)));
  const column = 3 * spacing; // labels past the first column are culled until zoomed in
  const left = maxX + 2 * spacing;
  isolated.forEach((node, i) => {
    band.set(node, { x: left + column * Math.floor(i / rows), y: maxY - step * (i % rows) });
  });
  return band;
}

/** Isolated concepts, A to Z by label, ties by id. */
export function sortByLabel(graph, ids) {
  const key = new Map(ids.map((id) => [id, String(graph.getNodeAttribute(id, "label")).toLowerCase()]));
  return ids.sort((a, b) => {
    const la = key.get(a);
    const lb = key.get(b);
    return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}

/**
 * Positions for the isolated concepts: { positions: Map(id → {x, y}), readable }. `readable`: the
 * band is laid out for the default zoom. Without a frame (no stage yet) or when the band is too
 * big, the dense band in graph units.
 */
export function bandPositions(connected, isolated, frame) {
  if (isolated.length === 0) return { positions: new Map(), readable: false };
  const readable = frame ? readableBand(connected, isolated, frame) : null;
  if (readable) return { positions: readable, readable: true };
  return { positions: denseBand(connected, isolated), readable: false };
}

/**
 * Which band labels to hide on a frame. band: { isolated (A to Z), positions, readable }.
 * Returns labelHidden(id, rowPx): true for a label of a dense band, other than the first of its
 * letter, while its rows are less than PITCH pixels apart on the screen (rowPx(pitch) says how far
 * apart `pitch` graph units are on this frame). Also the band's row pitch in graph units.
 */
export function bandLabels(graph, band) {
  const members = new Set(band.isolated);
  if (band.readable || members.size === 0) return { pitch: 0, hidden: () => false };
  const heads = new Set();
  let letter = null;
  for (const id of band.isolated) {
    const first = String(graph.getNodeAttribute(id, "label")).charAt(0).toLowerCase();
    if (first !== letter) heads.add(id);
    letter = first;
  }
  // The pitch: the smallest step between consecutive members of a column.
  let pitch = Infinity;
  for (let i = 1; i < band.isolated.length; i++) {
    const a = band.positions.get(band.isolated[i - 1]);
    const b = band.positions.get(band.isolated[i]);
    if (a && b && a.x === b.x && a.y !== b.y) pitch = Math.min(pitch, Math.abs(a.y - b.y));
  }
  if (pitch === Infinity) return { pitch: 0, hidden: () => false };
  return { pitch, hidden: (id, rowPx) => members.has(id) && !heads.has(id) && rowPx < PITCH };
}
