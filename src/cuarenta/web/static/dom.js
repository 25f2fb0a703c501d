// Small DOM helpers shared by the page's modules: `$` (querySelector), `el` (builds an element from
// props and children), `sleep`, and the reduced-motion media query.

export const $ = (sel, root = document) => root.querySelector(sel);
export const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "html") node.innerHTML = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
};
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
