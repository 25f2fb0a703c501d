// A link as a QR code (the table's invite, a championship's links): the SVG of `POST api/qr` (api.js),
// inserted as DOM (img-src allows 'self' only), with no script in it, hidden from assistive technology
// (the link itself is beside it as text).

import { qrMarkup } from "./api.js";

/** Draw `link` into `box` (emptied first); false when the server gave no code (the link is still shown). */
export async function drawQrInto(box, link, stillWanted = () => true) {
  box.replaceChildren();
  try {
    const markup = await qrMarkup(link);
    if (!markup || !stillWanted()) return false;
    const svg = new DOMParser().parseFromString(markup, "image/svg+xml").documentElement;
    if (svg.nodeName.toLowerCase() !== "svg") return false;
    for (const node of svg.querySelectorAll("script, foreignObject")) node.remove();
    const [w, h] = [parseFloat(svg.getAttribute("width")), parseFloat(svg.getAttribute("height"))];
    if (!svg.getAttribute("viewBox") && w > 0 && h > 0) svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    box.replaceChildren(document.importNode(svg, true));
    return true;
  } catch {
    return false;
  }
}
