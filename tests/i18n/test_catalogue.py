"""The one message catalogue: every key in pt, es and en, with the same params; t() and its fallbacks."""
from __future__ import annotations

import ast
import re
import string
from collections import Counter
from pathlib import Path

import pytest
import yaml

from i18n import CATALOGUE_DIR, LANGUAGES, CatalogueError, catalogue, has, normalise_language, t, t_all


def _params(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_catalogue_files_are_read_and_namespaced_by_file_name() -> None:
    names = {p.stem for p in CATALOGUE_DIR.glob("*.yaml")}
    assert {"assistant", "rules", "data", "app"} <= names
    assert all(key.split(".")[0] in names for key in catalogue())
    assert len(catalogue()) > 250


def test_every_key_is_in_pt_es_and_en_with_the_same_params() -> None:
    problems = []
    for key, texts in catalogue().items():
        if set(texts) != set(LANGUAGES) or not all(texts.values()):
            problems.append(f"{key}: languages {sorted(texts)}")
            continue
        wanted = _params(texts["pt"])
        for lang in ("es", "en"):
            if _params(texts[lang]) != wanted:
                problems.append(f"{key} [{lang}]: params {sorted(_params(texts[lang]))} != pt {sorted(wanted)}")
    assert not problems, "\n".join(problems)


def test_data_texts_carry_the_same_numbers_in_every_language() -> None:
    for key, texts in catalogue().items():
        if key.startswith("data.figures.") or key.startswith("data.modifications."):
            digits = [Counter(re.findall(r"\d+", texts[lang])) for lang in LANGUAGES]
            assert digits[0] == digits[1] == digits[2], key


def test_a_missing_translation_is_caught(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(yaml.safe_dump({"a": {"pt": "olá {name}", "es": "hola {nombre}"}}),
                                     encoding="utf-8")
    texts = catalogue.__wrapped__(tmp_path)["x.a"]
    assert set(texts) != set(LANGUAGES) and _params(texts["es"]) != _params(texts["pt"])


def test_t_renders_params_and_falls_back_to_portuguese() -> None:
    english = t("en", "rules.conditions.holding_min_pct", pct=37)
    assert english == "holds at least 37% of the capital of the paying company"
    pt = t("pt", "rules.conditions.holding_min_pct", pct=37)
    assert t("fr", "rules.conditions.holding_min_pct", pct=37) == pt
    assert t(None, "rules.conditions.holding_min_pct", pct=37) == pt  # type: ignore[arg-type]
    assert t("es-ES", "rules.states.ES") == "España" and normalise_language("en_GB") == "en"
    assert t_all("rules.states.JP") == {"pt": "Japão", "es": "Japón", "en": "Japan"}
    assert has("assistant.rate_cap") and not has("assistant.no_such_key")
    with pytest.raises(CatalogueError, match="no_such_key"):
        t("pt", "assistant.no_such_key")
    with pytest.raises(CatalogueError, match="pct"):
        t("pt", "rules.conditions.holding_min_pct")


def test_no_portuguese_only_text_is_left_in_the_rules_code() -> None:
    """User text comes from the catalogue: no pt=/es=/en= keyword texts or (pt, es, en) tuples in rules/."""
    root = Path(__file__).resolve().parents[2]
    for path in (root / "rules").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(pt|es|en)=f?[\"']", source), path.name
        assert not re.search(r"\"(es|en)\": \{?[\"']", source), path.name


# ---- the app: no user text outside the catalogue ------------------------------------------------------------
APP_ROOT = Path(__file__).resolve().parents[2]
APP_FILES = [APP_ROOT / "app.py", *sorted((APP_ROOT / "app_pages").glob("*.py")),
             *sorted((APP_ROOT / "app_support").glob("*.py"))]
_MARKUP = re.compile(r"<[^>]*>|:material/[a-z_]+:|:[a-z]+\[|&[a-z]+;|#src-|\{[^}]*\}")
_WORD = re.compile(r"[^\W\d_]{3,}")
UI_CALLS = {"markdown", "caption", "subheader", "title", "header", "info", "warning", "error", "success", "button",
            "form_submit_button", "radio", "selectbox", "multiselect", "text_input", "number_input", "date_input",
            "toggle", "checkbox", "expander", "download_button", "chat_input", "segmented_control", "spinner",
            "dialog", "Page", "write", "code", "toast", "popover", "tabs", "link_button", "page_link",
            "set_page_config"}
UI_KEYWORDS = {"label", "placeholder", "help", "title", "body", "page_title"}


def _literal_text(node: ast.AST) -> str:
    """The literal words of a string or f-string node: markup (HTML tags, icons, placeholders) and acronyms
    (MLI, CSV) removed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = " ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    else:
        return ""
    return " ".join(w for w in _MARKUP.sub(" ", text).split() if not w.strip("*()[]:,.").isupper())


def _hard_coded(path: Path) -> list[str]:
    """Literal words given to a Streamlit element as its text (positional, label, placeholder, help, title)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
        logger = isinstance(n.func, ast.Attribute) and getattr(n.func.value, "id", "") in ("log", "logging")
        if name not in UI_CALLS or logger:
            continue
        shown = list(n.args[:1]) + [k.value for k in n.keywords if k.arg in UI_KEYWORDS]
        for arg in shown:
            for part in ast.walk(arg):
                if isinstance(part, ast.Call):
                    break          # t(...) or a helper: its text is the catalogue's
                if id(part) in inner:
                    continue
                text = _literal_text(part)
                if _WORD.search(text):
                    found.append(f"{path.relative_to(APP_ROOT)}:{part.lineno}: {text.strip()[:60]!r}")
    return found


def test_the_app_writes_no_text_outside_the_catalogue() -> None:
    """Every word the app shows comes from t(ui_lang, …): no string with words in app.py, app_pages/, app_support/
    (docstrings, log lines, exceptions, keys and markup aside)."""
    found = [hit for path in APP_FILES for hit in _hard_coded(path)]
    assert not found, "\n".join(found)


def test_the_app_text_check_catches_a_hard_coded_label(tmp_path: Path) -> None:
    sample = tmp_path / "page.py"
    sample.write_text('import streamlit as st\nst.button("Voltar a responder")\nst.caption(f"Fonte: {x}")\n'
                      'st.markdown(f"**{t(ui, \'app.x\')}**")\n', encoding="utf-8")
    global APP_ROOT
    saved, APP_ROOT = APP_ROOT, tmp_path
    try:
        assert len(_hard_coded(sample)) == 2
    finally:
        APP_ROOT = saved
