"""The offline pack's size on the wire (docs/performance.md "The offline pack"): each file of the pack as
a static host would send it — raw, gzip -9 (Python's gzip, level 9) and, where Node.js is installed, brotli
at quality 11 (Node's zlib; a host that precompresses) — against the goal of at most 8 MB (10^6 bytes) on
the wire. Run from the repository root::

    .venv/bin/python bench/offline_pack.py            # the pack of `cuarenta pack` (built if missing)
    .venv/bin/python bench/offline_pack.py --pack DIR

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
from pathlib import Path

from cuarenta.offline.pack import build_pack, default_pack_dir, read_pack

GOAL_BYTES = 8_000_000
BROTLI = (
    "const z=require('zlib'),fs=require('fs');"
    "for (const f of process.argv.slice(1)) console.log(z.brotliCompressSync(fs.readFileSync(f),"
    "{params:{[z.constants.BROTLI_PARAM_QUALITY]:11,"
    "[z.constants.BROTLI_PARAM_SIZE_HINT]:fs.statSync(f).size}}).length)"
)


def brotli_sizes(paths: list[Path]) -> list[int] | None:
    node = shutil.which("node")
    if node is None:
        return None
    out = subprocess.run([node, "-e", BROTLI, *map(str, paths)], capture_output=True, text=True, check=True)
    return [int(line) for line in out.stdout.split()]


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
    names = sorted(described["files"], key=lambda n: -described["files"][n]["bytes"])
    paths = [where / n for n in names]
    gz = [len(gzip.compress(p.read_bytes(), compresslevel=9)) for p in paths]
    br = brotli_sizes(paths)
    raw = [described["files"][n]["bytes"] for n in names]
    print(f"pack {described['id']}, Pyodide {described['pyodide']}, wheels {described['wheels']}")
    print("| file | raw MB | gzip -9 MB | brotli 11 MB |")
    print("|---|---:|---:|---:|")
    for i, name in enumerate(names):
        print(f"| {name} | {mb(raw[i])} | {mb(gz[i])} | {mb(br[i]) if br else '—'} |")
    total_br = sum(br) if br else None
    print(f"| **total** | **{mb(sum(raw))}** | **{mb(sum(gz))}** | **{mb(total_br) if total_br else '—'}** |")
    best = min(sum(gz), total_br or sum(gz))
    verdict = "within" if best <= GOAL_BYTES else "over"
    print(f"goal: at most {mb(GOAL_BYTES)} MB on the wire: gzip {mb(sum(gz))} MB, {verdict} the goal")
    print(json.dumps({"raw": sum(raw), "gzip9": sum(gz), "brotli11": total_br}))


if __name__ == "__main__":
    main()
