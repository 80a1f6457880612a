"""`python -m modelstore [--only KEY] [--deep]`: make sure the models are in the cache and valid."""
from __future__ import annotations

import argparse
import sys

from config import load_settings
from modelstore.fetch import ModelError, ensure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m modelstore")
    parser.add_argument("--only", action="append", help="só este modelo (chave de specs.toml)")
    parser.add_argument("--deep", action="store_true", help="recalcular o sha256 mesmo com selo válido")
    args = parser.parse_args(argv)
    settings = load_settings()
    models_dir = settings.models_dir
    try:
        ensure(models_dir, settings.cache_dir / "downloads", args.only, deep=args.deep)
    except ModelError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
