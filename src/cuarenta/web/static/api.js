// HTTP helpers: tokens stay out of URLs (a header for reading, a body for the history), the detail of an
// error answer, and the download of a finished mesa's record.

import { t } from "./i18n.js";
import { showError } from "./dialogs.js";
import { el } from "./dom.js";

export function authorized(token, init = {}) {
  return { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${token}` } };
}

/** The record of a finished mesa, fetched with the seat's token in a header and offered as a file. */
export async function downloadRecord(room, token, mesa) {
  const query = mesa ? `?mesa=${encodeURIComponent(mesa)}` : "";
  try {
    const res = await fetch(`api/games/${encodeURIComponent(room)}/record${query}`, authorized(token));
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      throw new Error(errorDetail(body) || `HTTP ${res.status}`);
    }
    const url = URL.createObjectURL(await res.blob());
    const link = el("a", { href: url, download: `cuarenta-${room}${mesa ? `-mesa${mesa}` : ""}.cuarenta`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.err.download", { message: err.message }));
  }
}

export function errorDetail(body) {
  if (!body) return "";
  const d = body.detail ?? body.message ?? body.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg ?? JSON.stringify(x)).join("; ");
  return d ? JSON.stringify(d) : "";
}
