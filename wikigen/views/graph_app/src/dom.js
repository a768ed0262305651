// Small DOM helpers. Every text from graph.json goes through textContent, never innerHTML:
// labels, definitions and quotes are source data (R17), not markup.

export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") el.textContent = value;
    else if (name === "className") el.className = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.append(child);
  }
  return el;
}

// URLs in graph.json are relative to the graph page, so they are used as they are: the browser
// resolves them against the page. Only http(s) targets are allowed (no javascript:, data:, ...).
export function safeHref(url) {
  if (typeof url !== "string" || url === "") return null;
  try {
    const resolved = new URL(url, document.baseURI);
    return resolved.protocol === "http:" || resolved.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

export function link(url, text, className) {
  const href = safeHref(url);
  return href ? h("a", { href, className, text }) : h("span", { className, text });
}
