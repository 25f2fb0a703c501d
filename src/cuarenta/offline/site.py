"""``cuarenta site DIR``: the game as a complete static site, for any static host or a USB stick — the
page, the rules pages, the offline pack at ``device/``, ``site.json`` (``{"server": false, ...}``: the
page plays on the device), the service worker ``sw.js`` and the manifest (docs/web.md "Install and
offline"). Playing with friends still needs ``cuarenta serve``.

>>> site_json("0.2.0")["server"]
False
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from cuarenta import __version__
from cuarenta.offline.pack import TEXT_FILES, build_pack, shell_description, text_file

#: The page's directory in the installed package.
STATIC_DIR: Final = Path(__file__).resolve().parents[1] / "web" / "static"
_SKIP: Final = shutil.ignore_patterns("__pycache__", "*.pyc", "__init__.py")


class SiteError(Exception):
    """The site could not be written there (the message says why)."""


def site_json(version: str = __version__) -> dict[str, Any]:
    """What ``site.json`` of a static site says: no server, a pack, the version that wrote it."""
    return {
        "server": False,
        "pack": True,
        "version": version,
        "built": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def write_site(
    target: Path,
    static: Path = STATIC_DIR,
    npm_cache: Path | None = None,
    *,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the static site into ``target`` (a new or empty folder, or one an earlier ``cuarenta site``
    wrote, which is replaced); return the pack's ``pack.json``. :class:`SiteError` for any other folder.
    ``progress`` is told each step of the pack's making."""
    if target.exists():
        if not target.is_dir():
            raise SiteError(f"{target} is a file, not a folder")
        if any(target.iterdir()) and not (target / "site.json").is_file():
            raise SiteError(f"{target} is not empty and holds no site.json: give a new or empty folder")
    staging = target.with_name(f".{target.name}.new")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        shutil.copytree(static, staging, ignore=_SKIP)
        described = build_pack(into=staging / "device", npm_cache=npm_cache, progress=progress)
        shell = shell_description(static)
        (staging / "device" / "shell.json").write_text(json.dumps(shell, indent=1) + "\n", encoding="utf-8")
        (staging / "site.json").write_text(json.dumps(site_json(), indent=1) + "\n", encoding="utf-8")
        for name in TEXT_FILES:  # the page's words, as the server answers api/texts/{lang}
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_bytes(text_file(name))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return described


__all__ = ["STATIC_DIR", "SiteError", "site_json", "write_site"]
