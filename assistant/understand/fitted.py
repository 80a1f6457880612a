"""A fitted reader kept on disk: loaded from its cache file when there is one, else fitted and saved. The
readers (topic_model, direction_model) store their fitted parts as a tuple, never their own class, so a
cache file survives a change of the class's code; a damaged file is refitted."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, TypeVar

Model = TypeVar("Model")


def load_or_fit(path: Path, fit: Callable[[], Model], parts: Callable[[Model], tuple],
                build: Callable[..., Model]) -> Model:
    """The model saved at `path` (rebuilt by `build(*parts)`), or `fit()`'s, saved there as `parts(model)`."""
    import joblib

    if path.is_file():
        try:
            return build(*joblib.load(path))
        except Exception:  # noqa: BLE001 - a damaged cache file is refitted
            path.unlink(missing_ok=True)
    model = fit()
    path.parent.mkdir(parents=True, exist_ok=True)
    joblib.dump(parts(model), path)
    return model


def reading_code_digest(here: Path = Path(__file__).resolve().parent) -> str:
    """A digest of the code and word lists a reader's features come from (assistant/understand's modules, the
    lexicon's lists, code and towns table): a cached model fitted with other features is not reused."""
    lexicon = here.parent / "lexicon"
    files = sorted([*here.glob("*.py"), *lexicon.glob("*.yaml"), *lexicon.glob("*.py"), *lexicon.glob("*.tsv")])
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return digest.hexdigest()[:20]
