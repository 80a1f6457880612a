"""The evaluation set is well formed, balanced, covers the corpus, and its gold agrees with the sources.

Schema and gold checks run on every split; the balance and coverage checks on the core split, which
is the hand-built set that must cover the whole corpus."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from eval.gold import (
    CORE_SPLIT,
    DEFAULT_QUESTIONS,
    GoldError,
    item_from_record,
    load_eval_set,
    load_questions,
    normalise_article,
    normalise_part,
    split_of,
)
from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus, read_source

ITEMS = load_eval_set()
CORE = [i for i in ITEMS if i.split == CORE_SPLIT]
CATALOG = {d.id: d for d in load_catalog(DEFAULT_CORPUS_DIR)}
SOURCES = {doc_id: read_source(info.path) for doc_id, info in CATALOG.items()}
TREATIES = {d.treaty for d in CATALOG.values()}

REQUIRED_CATEGORIES = {
    "dividends", "interest", "royalties", "technical_services", "branch_profits", "employment_183",
    "tiebreaker", "pe_threshold", "students", "professors", "pensions", "tax_sparing", "relief",
    "mutual_agreement", "mli", "portaria", "applicability", "out_of_corpus_pair", "out_of_scope_topic",
    "hostile", "empty_or_garbage",
}


def test_size_and_unique_ids():
    assert len(CORE) >= 130
    ids = [i.id for i in ITEMS]
    assert len(ids) == len(set(ids)), [x for x, n in Counter(ids).items() if n > 1]
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", i) for i in ids)


def test_language_mix():
    counts = Counter(i.language for i in CORE)
    share = {k: v / len(CORE) for k, v in counts.items()}
    assert 0.62 <= share["pt"] <= 0.78
    assert 0.10 <= share["es"] <= 0.22
    assert 0.10 <= share["en"] <= 0.22
    variants = Counter(i.variant for i in CORE if i.language == "pt" and i.question.strip())
    pt_total = sum(variants.values())
    assert variants["pt-PT"] / pt_total >= 0.3 and variants["pt-BR"] / pt_total >= 0.3
    assert all(i.variant is None for i in ITEMS if i.language != "pt")


def test_categories_cover_the_brief():
    assert REQUIRED_CATEGORIES <= {i.category for i in CORE}


def test_every_document_is_covered_and_docs_exist():
    covered = Counter(d for i in CORE for d in i.docs)
    assert set(covered) <= set(CATALOG), set(covered) - set(CATALOG)
    for doc_id in CATALOG:
        assert covered[doc_id] >= 5, f"{doc_id} só tem {covered[doc_id]} perguntas"


def test_treaties_and_docs_agree():
    for item in ITEMS:
        assert item.treaty is None or item.treaty in TREATIES, item.id
        treaties_cited = {a.treaty for a in item.articles + item.articles_ok}
        doc_treaties = {CATALOG[d].treaty for d in item.docs}
        assert treaties_cited <= doc_treaties, (item.id, treaties_cited, doc_treaties)


def test_abstain_items_have_no_gold_answer():
    for item in ITEMS:
        if item.abstain:
            assert not (item.rates or item.articles or item.key_facts or item.forbidden_rates), item.id
        else:
            assert item.treaty is not None and item.articles, item.id
    out = [i for i in CORE if i.category in {"out_of_corpus_pair", "out_of_scope_topic", "empty_or_garbage"}]
    assert len(out) >= 20 and all(i.abstain for i in out)


def test_rates_are_consistent():
    for item in ITEMS:
        assert not set(item.rates) & set(item.forbidden_rates), item.id
        assert not set(item.rates_allowed) & set(item.forbidden_rates), item.id
        assert all(0 <= r <= 100 for r in item.rates + item.rates_allowed + item.forbidden_rates), item.id


def test_income_types_have_items_with_and_without_enough_facts():
    for category in ("dividends", "interest", "royalties"):
        sized = Counter(min(len(i.rates), 2) for i in CORE if i.category == category)
        assert sized[1] >= 3 and sized[2] >= 1, (category, sized)


def test_hostile_items_include_injections_inside_valid_questions():
    hostile = [i for i in CORE if i.category == "hostile"]
    injected = [i for i in hostile if not i.abstain and i.forbidden_rates and i.rates]
    assert len(injected) >= 6
    assert any(i.abstain for i in hostile)


def test_employment_items_use_concrete_dates_in_each_counting_window():
    dated = [i for i in CORE if i.category == "employment_183" and re.search(r"\b20\d\d\b", i.question)]
    assert {i.treaty for i in dated} >= {"PT-BR", "BR-ES", "PT-JP"}


def test_paragraphs_belong_to_cited_articles():
    for item in ITEMS:
        articles = {(a.treaty, a.article) for a in item.articles + item.articles_ok}
        for p in item.paragraphs:
            assert (p.treaty, p.article) in articles, (item.id, p)


def _rate_written(rate: float, text: str) -> bool:
    number = str(int(rate)) if rate == int(rate) else str(rate)
    return re.search(rf"(?<![\d.,]){re.escape(number)}\s?%", text) is not None


def test_every_gold_rate_is_written_in_one_of_the_items_documents():
    for item in ITEMS:
        texts = [SOURCES[d] for d in item.docs]
        for rate in item.rates + item.rates_allowed:
            if rate == 0:
                assert any(re.search(r"isent|exent", t, re.I) for t in texts), item.id
            else:
                assert any(_rate_written(rate, t) for t in texts), (item.id, rate)


def _addressable(item_docs: tuple[str, ...], treaty: str | None) -> list:
    _, parsed = cached_corpus()
    return [u for d in item_docs if CATALOG[d].treaty == treaty for u in parsed[d].units]


def test_every_gold_address_exists_in_the_parsed_corpus():
    """A gold article or paragraph nobody can cite would make recall unreachable."""
    for item in ITEMS:
        for a in item.articles + item.articles_ok:
            units = _addressable(item.docs, a.treaty)
            assert any(normalise_article(u.article) == a.article for u in units if u.article), (item.id, a)
        for p in item.paragraphs:
            units = _addressable(item.docs, p.treaty)
            assert any(normalise_article(u.article) == p.article and normalise_part(u.paragraph) == p.paragraph
                       and (p.subparagraph is None or normalise_part(u.subparagraph) == p.subparagraph)
                       for u in units if u.article), (item.id, p)


def _ngrams(text: str, n: int = 8) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_questions_are_not_copied_from_the_corpus():
    corpus = set().union(*(_ngrams(t) for t in SOURCES.values()))
    copied = [i.id for i in ITEMS if _ngrams(i.question) & corpus]
    assert not copied


GOOD = json.loads(DEFAULT_QUESTIONS.read_text(encoding="utf-8").splitlines()[0])


@pytest.mark.parametrize("change, message", [
    ({"language": "fr"}, r"«language»: língua 'fr' desconhecida"),
    ({"variant": "pt-AO"}, r"«variant»: variante 'pt-AO' desconhecida"),
    ({"key_facts": ["(unclosed"]}, r"«key_facts»: expressão regular inválida"),
    ({"rates": ["10%"]}, r"«rates\[0\]»: deve ser um número .*'10%'"),
    ({"rates": [True]}, r"«rates\[0\]»: deve ser um número"),
    ({"forbidden_rates": [10, 150]}, r"«forbidden_rates\[1\]»: deve estar entre 0 e 100"),
    ({"paragraphs": ["10-2-a"]}, r"«paragraphs»: referência de número inválida"),
    ({"abstain": "yes"}, r"«abstain»: deve ser true ou false"),
    ({"articles": [""]}, r"«articles\[0\]»: não pode ser vazio"),
    ({"id": "Div 1"}, r"«id»: formato inválido"),
    ({"source_url": "www.example.com"}, r"«source_url»: deve ser um endereço http"),
    ({"sorce_url": "https://example.com"}, r"«sorce_url»: campo desconhecido"),
])
def test_loader_rejects_bad_records_naming_the_field(change, message):
    with pytest.raises(GoldError, match=message):
        item_from_record({**GOOD, **change}, "questions.jsonl linha 1")


def test_a_missing_field_is_named_and_the_line_and_id_are_given():
    with pytest.raises(GoldError,
                       match=r"^questions.jsonl linha 7 \(ptbr-div-001\): «abstain»: campo obrigatório em falta$"):
        item_from_record({k: v for k, v in GOOD.items() if k != "abstain"}, "questions.jsonl linha 7")
    with pytest.raises(GoldError, match="objeto JSON"):
        item_from_record(["not", "a", "record"])


def test_loader_rejects_a_bad_file(tmp_path: Path):
    bad_file = tmp_path / "questions.jsonl"
    bad_file.write_text(json.dumps(GOOD) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(GoldError, match="linha 2"):
        load_questions(bad_file)


# ---------------------------------------------------------------- splits: one per file

def _write(path: Path, *records: dict) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_each_questions_file_is_its_own_split(tmp_path: Path):
    _write(tmp_path / "questions.jsonl", GOOD)
    _write(tmp_path / "questions_realworld.jsonl", {**GOOD, "id": "rw-div-001"}, {**GOOD, "id": "rw-div-002"})
    _write(tmp_path / "questions_rights.jsonl", {**GOOD, "id": "rights-pen-001"})
    _write(tmp_path / "notes.jsonl", {"not": "an item"})          # not a questions file: ignored
    items = load_eval_set(tmp_path)
    assert [(i.id, i.split) for i in items] == [("ptbr-div-001", "core"), ("rw-div-001", "realworld"),
                                                 ("rw-div-002", "realworld"), ("rights-pen-001", "rights")]


def test_an_id_may_appear_in_only_one_file(tmp_path: Path):
    _write(tmp_path / "questions.jsonl", GOOD)
    _write(tmp_path / "questions_realworld.jsonl", GOOD)
    with pytest.raises(GoldError, match=r"questions_realworld.jsonl: id repetido 'ptbr-div-001' "
                                        r"\(já existe em questions.jsonl\)"):
        load_eval_set(tmp_path)


def test_split_names_come_from_the_file_name():
    assert split_of(Path("questions.jsonl")) == "core"
    assert split_of(Path("questions_realworld.jsonl")) == "realworld"
    with pytest.raises(GoldError, match="nome de ficheiro"):
        split_of(Path("questions_Real World.jsonl"))


def test_a_folder_without_questions_is_an_error(tmp_path: Path):
    with pytest.raises(GoldError, match="nenhum ficheiro"):
        load_eval_set(tmp_path)


# ---------------------------------------------------------------- the real-world split

REALWORLD = [i for i in ITEMS if i.split == "realworld"]


def test_realworld_items_come_from_public_pages():
    assert len(REALWORLD) >= 60
    assert all(i.source_url and i.source_url.startswith(("http://", "https://")) for i in REALWORLD)
    assert len({i.source_url for i in REALWORLD}) >= 30            # many situations, not one page rewritten


def test_realworld_mixes_languages_lengths_and_unanswerable_questions():
    mix = Counter(i.variant or i.language for i in REALWORLD)
    assert all(mix[k] >= 10 for k in ("pt-PT", "pt-BR", "es", "en")), mix
    lengths = [len(i.question) for i in REALWORLD]
    assert sum(n >= 250 for n in lengths) >= 10 and sum(n <= 80 for n in lengths) >= 5
    assert sum(i.abstain for i in REALWORLD) >= 10
    assert len({i.treaty for i in REALWORLD if i.treaty}) >= 3
