// The download of a finished mesa's record: fetched with the seat's token in a header (api.js) and
// offered as a file (a Blob URL), so the token is never in an address.

import { t } from "./i18n.js";
import { record } from "./api.js";
import { showError } from "./errors.js";
import { el } from "./dom.js";

export async function downloadRecord(room, token, mesa) {
  try {
    const url = URL.createObjectURL(await record(room, token, mesa));
    const link = el("a", { href: url, download: `cuarenta-${room}${mesa ? `-mesa${mesa}` : ""}.cuarenta`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.err.download", { message: err.message }));
  }
}
