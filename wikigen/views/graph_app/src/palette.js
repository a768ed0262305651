// V4: communities are node colours, from a fixed palette indexed by community number, so a
// community keeps its colour between builds of the same snapshot.
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#17becf",
  "#bcbd22",
  "#8c6d31",
];

const NO_COMMUNITY = "#7f7f7f";

export function communityColor(community) {
  if (!Number.isInteger(community) || community < 0) return NO_COMMUNITY;
  return PALETTE[community % PALETTE.length];
}

// Colours that depend on the page theme (MkDocs Material's light "default" or dark "slate").
export function themeColors(element) {
  const dark = element.closest("[data-md-color-scheme]")?.getAttribute("data-md-color-scheme") === "slate";
  return dark
    ? { label: "#e6e6e6", halo: "rgba(46, 48, 62, 0.85)", veil: "rgba(46, 48, 62, 0.85)", edge: "#5a5f6e", focusEdge: "#c8ccd8", hull: "140, 160, 210" }
    : { label: "#222222", halo: "rgba(255, 255, 255, 0.85)", veil: "rgba(255, 255, 255, 0.85)", edge: "#c9ccd4", focusEdge: "#555b6e", hull: "90, 110, 160" };
}
