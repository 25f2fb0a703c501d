"""The offline pack's size on the wire (docs/performance.md "The offline pack"): each file of the pack as
a host sends it — raw (a plain static host), its ``.gz`` copy (gzip -9) and its ``.br`` copy (brotli 11),
which the pack holds for the text-like files (``cuarenta serve`` sends them with Content-Encoding; the zips
are sent as they are) — against the goal of at most 8 MB (10^6 bytes) on the wire. Run from the
repository root::

    .venv/bin/python bench/offline_pack.py            # the pack of `cuarenta pack` (built if missing)
    .venv/bin/python bench/offline_pack.py --pack DIR

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cuarenta.offline.pack import build_pack, default_pack_dir, read_pack

GOAL_BYTES = 8_000_000


def mb(n: int) -> str:
    return f"{n / 1e6:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pack", type=Path, default=None, help="the pack (default: cuarenta pack's)")
    args = parser.parse_args()
    where = args.pack or default_pack_dir()
    described = read_pack(where)
    if described is None:
        described = build_pack(into=where)
    files = described["files"]
    names = sorted(files, key=lambda n: -files[n]["bytes"])
    raw = [files[n]["bytes"] for n in names]
    gz = [files[n].get("gzip", files[n]["bytes"]) for n in names]
    br = [files[n].get("br", files[n].get("gzip", files[n]["bytes"])) for n in names]
    print(f"pack {described['id']}, Pyodide {described['pyodide']}, wheels {described['wheels']}")
    print("| file | raw MB | gzip -9 MB | brotli 11 MB |")
    print("|---|---:|---:|---:|")
    for i, name in enumerate(names):
        print(f"| {name} | {mb(raw[i])} | {mb(gz[i])} | {mb(br[i])} |")
    print(f"| **total** | **{mb(sum(raw))}** | **{mb(sum(gz))}** | **{mb(sum(br))}** |")
    verdict = "within" if sum(gz) <= GOAL_BYTES else "over"
    print(f"goal: at most {mb(GOAL_BYTES)} MB on the wire: gzip {mb(sum(gz))} MB, {verdict} the goal")
    print(json.dumps({"raw": sum(raw), "gzip9": sum(gz), "brotli11": sum(br)}))


if __name__ == "__main__":
    main()
