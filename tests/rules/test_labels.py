"""pt/es/en renderings: condition texts, figures, documents, windows, tie-breaker steps, refusals, labels."""
from __future__ import annotations

import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
import yaml

from config import load_settings
from i18n import has
from rules import (
    Figure,
    NotCovered,
    RulesDataError,
    RulesInputError,
    TiebreakerFacts,
    applicable_documents,
    employment_183_days,
    figures,
    residence_tiebreaker,
    withholding_cap,
)
from rules.conditions import condition_text
from rules.facts import TOPICS
from rules.labels import state_name, topic_label, unit_label
from rules.treaty_data import load_all, load_treaty_file

README = Path(__file__).resolve().parents[2] / "rules" / "README.md"
FOREIGN = ("es", "en")
# Values that appear in no data file, so a number in a rendered text can only come from the params.
SAMPLE_PARAMS = {"pct": 37, "years": 7, "max_days": 211, "days": 58}


def _readme_codes() -> dict[str, list[str]]:
    """Condition codes and their params, from the README table (the documented contract)."""
    section = README.read_text(encoding="utf-8").split("## Condition codes", 1)[1].split("\nStatuses:", 1)[0]
    codes = {}
    for code, params in re.findall(r"^\| `(\w+)` \| ([^|]*) \|", section, flags=re.M):
        codes[code] = re.findall(r"`(\w+)`", params)
    return codes


def _digits(text: str) -> Counter:
    return Counter(re.findall(r"\d+", text))


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _all_figures() -> list[Figure]:
    found = []
    for treaty in load_all():
        for topic in TOPICS:
            result = figures(treaty, topic)
            if isinstance(result, list):
                found += result
    return found


def test_readme_lists_the_condition_codes() -> None:
    codes = _readme_codes()
    assert len(codes) >= 18 and codes["holding_min_pct"] == ["pct"]
    assert codes["days_within_limit"] == ["max_days", "days"]


@pytest.mark.parametrize("code,params", sorted(_readme_codes().items()))
def test_every_condition_code_reads_in_three_languages(code: str, params: list[str]) -> None:
    values = {p: SAMPLE_PARAMS[p] for p in params}
    texts = {lang: condition_text(code, values, lang) for lang in ("pt", "es", "en")}
    for lang, text in texts.items():
        assert len(text) > 10, (code, lang)
        for value in values.values():
            assert str(value) in text, (code, lang, value)
    assert len(set(texts.values())) == 3, code
    # English shares little vocabulary with Portuguese; Spanish at least differs in wording.
    assert len(_words(texts["en"]) & _words(texts["pt"])) <= len(_words(texts["en"])) / 2, code
    assert _words(texts["es"]) != _words(texts["pt"]), code


def test_condition_language_fallback_and_unknown_code() -> None:
    pt = condition_text("holding_min_pct", {"pct": 37}, "pt")
    assert condition_text("holding_min_pct", {"pct": 37}, "fr") == pt
    assert condition_text("holding_min_pct", {"pct": 37}, None) == pt  # type: ignore[arg-type]
    spanish = condition_text("holding_min_pct", {"pct": 37}, "es")
    assert condition_text("holding_min_pct", {"pct": 37}, "es-ES") == spanish
    with pytest.raises(RulesInputError):
        condition_text("no_such_code", {}, "en")
    with pytest.raises(RulesInputError):
        condition_text("holding_min_pct", {}, "en")


def test_every_figure_has_three_texts_with_the_same_numbers() -> None:
    found = _all_figures()
    declared = sum(len(d.figures) for d in load_all().values())
    assert len(found) > declared                      # data-file figures plus the withholding rates
    for fig in found:
        assert fig.text_in("pt") == fig.text, fig.id
        for lang in FOREIGN:
            text = fig.text_in(lang)
            assert text and text != fig.text, (fig.id, lang)
            assert _digits(text) == _digits(fig.text), (fig.id, lang, text)
        assert fig.text_in("de") == fig.text


def test_withholding_figures_render_conditions_in_the_language() -> None:
    fig = next(f for f in figures("PT-BR", "dividends") if any(c.code == "holding_min_pct" for c in f.conditions))
    cond = next(c for c in fig.conditions if c.code == "holding_min_pct")
    for lang in ("pt", "es", "en"):
        assert cond.text_in(lang) == condition_text("holding_min_pct", cond.params, lang)
        assert cond.text_in(lang) in fig.text_in(lang)


def test_data_file_naming_a_text_the_catalogue_lacks_is_rejected(tmp_path: Path) -> None:
    entry = {"id": "x.pe", "topic": "permanent_establishment", "value": 7, "unit": "months",
             "citations": [{"doc": "d", "quote": "sete meses"}]}
    path = tmp_path / "x.yaml"
    path.write_text(yaml.safe_dump({"treaty": "X-Y", "parties": ["X", "Y"], "figures": [entry]}), encoding="utf-8")
    with pytest.raises(RulesDataError, match="data.figures.x.pe"):
        load_treaty_file(path)
    entry["id"] = "pt-br.pe.construction-site"        # a figure the catalogue describes
    path.write_text(yaml.safe_dump({"treaty": "X-Y", "parties": ["X", "Y"], "figures": [entry],
                                    "notes": ["no-such-note"]}), encoding="utf-8")
    with pytest.raises(RulesDataError, match="data.notes.no-such-note"):
        load_treaty_file(path)


def test_notes_read_in_the_answer_language() -> None:
    r = withholding_cap("PT-JP", "dividends", "JP")
    assert r.notes and all(r.notes_in("es")) and r.notes_in("es") != r.notes_in("pt")
    assert r.to_dict()["notes"] == r.notes_in("pt")


def test_documents_are_described_in_three_languages() -> None:
    for treaty in ("PT-BR", "BR-ES", "PT-JP"):
        for doc in applicable_documents(treaty):
            for lang in FOREIGN:
                text = doc.text_in(lang)
                assert text and text != doc.text_in("pt"), (treaty, doc.doc, lang)
                assert not (_digits(text) - _digits(doc.text)), (treaty, doc.doc, lang)
                if doc.relation in ("modifies", "not_established"):
                    assert _digits(text) == _digits(doc.text), (treaty, doc.doc, lang)


def test_employment_window_and_tiebreaker_steps_in_three_languages() -> None:
    for treaty in ("PT-BR", "BR-ES", "PT-JP"):
        r = employment_183_days(treaty, [(date(2023, 1, 1), date(2023, 2, 1))], False, False)
        texts = {lang: r.window_text_in(lang) for lang in ("pt", "es", "en")}
        assert texts["pt"] == r.window_text and len(set(texts.values())) == 3
        assert all(_digits(t) == _digits(r.window_text) for t in texts.values())
        assert all(str(r.max_days) in c.text_in("en") for c in r.conditions if c.code == "days_within_limit")
    steps = residence_tiebreaker("PT-BR", TiebreakerFacts(permanent_home_in=(), habitual_abode_in=(),
                                                          nationality=())).steps
    assert [s.step for s in steps][-1] == "mutual_agreement"
    for step in steps:
        assert step.text_in("pt") == step.text
        assert len({step.text_in(lang) for lang in ("pt", "es", "en")}) == 3, step.step


@pytest.mark.parametrize("result", [
    lambda: figures("PT-FR", "dividends"), lambda: figures("PT-BR", "vat"), lambda: figures("PT-JP", "tax_sparing"),
    lambda: withholding_cap("BR-ES", "branch_profits", "ES"), lambda: withholding_cap("MLI", "dividends", "PT"),
    lambda: withholding_cap("PT-JP", "technical_services", "PT"), lambda: employment_183_days("MLI", [], None, None),
    lambda: residence_tiebreaker("PT-JP", TiebreakerFacts(person="company")),
])
def test_refusals_read_in_three_languages(result) -> None:
    r = result()
    assert isinstance(r, NotCovered)
    texts = [r.message_in(lang) for lang in ("pt", "es", "en")]
    assert texts[0] == r.message and len(set(texts)) == 3 and all(texts)
    assert r.message_in("xx") == r.message


def test_topic_unit_and_state_labels() -> None:
    for topic in TOPICS:
        names = [topic_label(topic, lang) for lang in ("pt", "es", "en")]
        assert all(names) and not any("_" in n for n in names), topic      # never the raw code
    assert topic_label("dividends", "en") == "dividends" and topic_label("interest", "es") == "intereses"
    assert topic_label("no_such_topic", "es") == "no_such_topic"
    units = {yaml_unit for path in load_settings().rules_dir.glob("*.yaml") for yaml_unit in re.findall(
        r"^\s*unit: (\S+)", path.read_text(encoding="utf-8"), flags=re.M)}
    assert {"percent", "days", "months", "years"} <= units
    for unit in units:                                # every unit the data files use has a label
        assert has(f"rules.units.{unit}.one") and has(f"rules.units.{unit}.other"), unit
        assert all(unit_label(unit, 2, lang) and "_" not in unit_label(unit, 2, lang) for lang in ("pt", "es", "en"))
    assert [unit_label("months", 9, lang) for lang in ("pt", "es", "en")] == ["meses", "meses", "months"]
    assert unit_label("years", 1, "en") == "year" and unit_label("years", 2, "es") == "años"
    assert [unit_label("USD_per_calendar_year", 3000, lang) for lang in ("pt", "es", "en")] == [
        "US$ por ano civil", "US$ por año natural", "US$ per calendar year"]
    assert unit_label("furlongs", 3, "en") == "furlongs"
    assert [state_name("es", lang) for lang in ("pt", "es", "en")] == ["Espanha", "España", "Spain"]
    assert state_name("JP", "en") == "Japan" and state_name("BR", "en") == "Brazil"
    assert state_name("FR", "es") == "FR"
    for parties in (d.parties for d in load_all().values()):
        assert all(state_name(p, "en") != p for p in parties)


def test_input_errors_speak_the_question_language() -> None:
    """Bad input to a rule is a catalogue message: the es/en answer must not get a Portuguese error."""
    with pytest.raises(RulesInputError) as err:
        employment_183_days("PT-BR", [(date(2024, 3, 1), date(2024, 2, 1))], False, False)
    assert "anterior" in str(err.value)                       # logs and the Portuguese pages
    assert err.value.text_in("es") == ("Estancia 1: la fecha de fin (2024-02-01) es anterior a la de "
                                       "inicio (2024-03-01).")
    assert err.value.text_in("en").startswith("Stay 1: the end date (2024-02-01) is before")
    with pytest.raises(RulesInputError) as err:
        residence_tiebreaker("PT-BR", TiebreakerFacts(permanent_home_in=("JP",)))
    assert err.value.text_in("en").startswith("permanent home available to the person: JP is not a party")
    assert err.value.text_in("es").startswith("vivienda permanente a su disposición: JP no es parte")
