"""Rewrite checkpoint folders as light ones: actor and critic as arrays, no model.zip.

    python benchmarks/lighten_checkpoints.py [--root checkpoints] [--out ROOT] [--precision float16]

Each `ROOT/<game>/<name>/` checkpoint (a shipped bot) is rewritten by `publish` with the
evaluation already on its card: its actor and critic come from its policy.npz, or from its
model.zip's SB3 policy in a folder written before policy.npz, and are stored in `--precision`.
With `--out`, the light folders go to `OUT/<game>/<name>/` and the originals stay as they are.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardarena.agents.checkpoint import PRECISIONS, read_card
from cardarena.training.publish import publish


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("checkpoints"), help="folder of <game>/<name> checkpoints")
    parser.add_argument("--out", type=Path, default=None, help="where to write them (default: in place)")
    parser.add_argument("--precision", choices=PRECISIONS, default="float16")
    args = parser.parse_args()
    for card_path in sorted(args.root.glob("*/*/card.json")):
        source = card_path.parent
        destination = (args.out or args.root) / source.parent.name / source.name
        written = publish(source, destination, read_card(source)["evaluation"], args.precision)
        size = sum(file.stat().st_size for file in written.iterdir())
        print(f"{written}: {', '.join(sorted(file.name for file in written.iterdir()))} ({size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
