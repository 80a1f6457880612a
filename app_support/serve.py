"""`python -m app_support.serve [streamlit options]` (what `make run` starts): the Streamlit server for app.py,
with the models and the parsed corpus loading from the moment the process starts. Streamlit runs app.py only
when a browser connects, so without this the load (~20 s) would begin with the first page and the agent's first
question would wait for it."""
from __future__ import annotations

import sys
from pathlib import Path

from streamlit.web import cli

from app_support.resources import preload

APP = Path(__file__).resolve().parent.parent / "app.py"


def main(argv: list[str] | None = None) -> None:
    preload()
    sys.argv = ["streamlit", "run", str(APP), *(sys.argv[1:] if argv is None else argv)]
    cli.main()


if __name__ == "__main__":
    main()
