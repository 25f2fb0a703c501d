// The error banner (`role="alert"`): a text in the page's language, and the code it came with.

import { $ } from "./dom.js";

let errorTimer = null;
export function showError(text, code = "") {
  const box = $("#error");
  $(".error-text", box).textContent = text;
  box.dataset.code = code;
  box.hidden = false;
  clearTimeout(errorTimer);
  if (["stale", "not_your_turn"].includes(code)) errorTimer = setTimeout(() => hideError(), 6000);
}
export function hideError(codes = null) {
  const box = $("#error");
  if (box.hidden) return;
  if (codes && !codes.includes(box.dataset.code)) return;
  box.hidden = true;
}
