"""Every value in rules/data is backed by the corpus: its quote occurs in the unit it cites, and the
number occurs in the quote. Changing a rate, threshold or address without the text fails here.

Units come from ingest.corpus (the parsers). A citation addressed to an alínea that the parser does
not split out is checked against the closest enclosing unit (paragraph, then article); those
fall-backs are printed by test_fallbacks_are_reported. In an OCR document (two columns interleaved), a
quote must be a contiguous run of the raw source inside the cited unit (whitespace and line-end
hyphenation aside), not of the parser's one-language stream; and every quote set carries the words that
decide its right and its conditions (DECIDING_WORDS).
"""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus
from ingest.units import ParsedDocument, normalise_ws
from rules.treaty_data import CitedQuote, TreatyData, load_all

PT_NUMBER_WORDS = {1: ("um", "uma"), 2: ("dois", "duas"), 3: ("três",), 4: ("quatro",), 5: ("cinco",),
                   6: ("seis",), 7: ("sete",), 8: ("oito",), 9: ("nove",), 10: ("dez",), 11: ("onze",),
                   12: ("doze",)}


@lru_cache(maxsize=1)
def sources() -> dict[str, ParsedDocument]:
    _, docs = cached_corpus(DEFAULT_CORPUS_DIR)
    return docs


@lru_cache(maxsize=1)
def ocr_docs() -> frozenset[str]:
    return frozenset(d.id for d in load_catalog(DEFAULT_CORPUS_DIR) if d.ocr)


_HYPHEN = re.compile(r"([^\W\d_])[-\u2010\u00ac]\s+([^\W\d_])")


def raw_form(text: str) -> str:
    """Whitespace collapsed and line-end hyphenation joined ("tri- butáveis" → "tributáveis"); nothing else."""
    return _HYPHEN.sub(r"\1\2", normalise_ws(text))


def unit_texts(cq: CitedQuote) -> tuple[list[str], str]:
    """Texts of the units at the citation's address, and the level actually used. For an OCR document the
    text is the raw source between the unit's first and last offsets (both columns, noise kept)."""
    c = cq.citation
    doc = sources()[c.doc]
    for paragraph, sub, level in ((c.paragraph, c.subparagraph, "exact"),
                                  (c.paragraph, None, "paragraph"), (None, None, "article")):
        if level != "exact" and paragraph == c.paragraph and sub == c.subparagraph:
            continue
        units = doc.find(c.article, paragraph, sub, language=c.language)
        if units:
            if c.doc in ocr_docs():
                return [raw_form(doc.source[u.start:u.end]) for u in units], level
            return [u.text for u in units], level
    return [], "missing"


def number_in(value: float | str, text: str) -> bool:
    if isinstance(value, str):      # ISO date: its year and day must both be in the quote
        y, _, d = value.split("-")
        return number_in(int(y), text) and number_in(int(d), text)
    forms: list[str] = []
    if float(value).is_integer():
        n = int(value)
        forms.append(str(n))
        if n >= 1000:
            forms += [f"{n:,}".replace(",", "."), f"{n:,}".replace(",", " ")]
    else:
        forms += [str(value), str(value).replace(".", ",")]
    if any(re.search(rf"(?<![\d.,]){re.escape(f)}(?!\d|[.,]\d)", text) for f in forms):
        return True
    words = PT_NUMBER_WORDS.get(int(value)) if float(value).is_integer() else None
    return bool(words) and any(re.search(rf"\b{w}\b", text, re.IGNORECASE) for w in words)


def all_citations(data: TreatyData) -> list[tuple[str, CitedQuote]]:
    out: list[tuple[str, CitedQuote]] = []
    rules = list(data.common_exclusions) + [r for spec in data.incomes.values() for r in spec.rules]
    out += [(r.id, c) for r in rules for c in r.citations]
    for name, spec in data.incomes.items():
        out += [(f"{name} requisito {req.code}", c) for req in spec.requirements for c in req.citations]
        if spec.redirect:
            out += [(f"{name} redirect", c) for c in spec.redirect.citations]
    if data.employment:
        e = data.employment
        out += [("employment", c) for c in e.citations + e.employer_citations + e.pe_citations]
    out += [(f"residence.{s}", c) for s, c in {**data.residence_individual, **data.residence_company}.items()]
    out += [(f.id, c) for f in data.figures for c in f.citations]
    out += [(f"modified_by {m.doc}", c) for m in data.modified_by for c in m.citations]
    out += [(case.id, c) for spec in data.rights.values() for case in spec.cases for c in case.citations]
    out += [(f"articles.{a.article}", c) for a in data.rights_articles.values() for c in a.citations]
    out += [(r.id, c) for r in data.relief for c in r.citations]
    return out


def valued(data: TreatyData) -> list[tuple[str, float | str, CitedQuote]]:
    """(id, value, the citation that must state it): each value is stated by its first citation."""
    rules = list(data.common_exclusions) + [r for spec in data.incomes.values() for r in spec.rules]
    out = [(r.id, r.value, r.citations[0]) for r in rules if r.value is not None]
    out += [(f.id, f.value, f.citations[0]) for f in data.figures if f.value is not None]
    if data.employment:
        out.append(("employment.max_days", data.employment.max_days, data.employment.citations[0]))
    return out


def parameterised(data: TreatyData) -> list[tuple[str, float, tuple[CitedQuote, ...]]]:
    """Numeric condition parameters (25% holding, 2 years, 10-year loans): stated by one of the citations."""
    rules = list(data.common_exclusions) + [r for spec in data.incomes.values() for r in spec.rules]
    items = [(r.id, r.when, r.citations) for r in rules] + [(f.id, f.conditions, f.citations) for f in data.figures]
    items += [(c.id, c.when, c.citations) for spec in data.rights.values() for c in spec.cases]
    items += [(r.id, r.when, r.citations) for r in data.relief]
    return [(f"{rid} {cond.code}", v, cits) for rid, conds, cits in items for cond in conds
            for v in cond.params.values() if isinstance(v, (int, float))]


TREATIES = load_all()
CITATIONS = [(t, rid, c) for t, d in TREATIES.items() for rid, c in all_citations(d)]
VALUES = [(t, rid, v, c) for t, d in TREATIES.items() for rid, v, c in valued(d)]
PARAMS = [(t, rid, v, cs) for t, d in TREATIES.items() for rid, v, cs in parameterised(d)]


def _id(c: CitedQuote) -> str:
    x = c.citation
    return f"{x.doc}:{x.article}/{x.paragraph}/{x.subparagraph}:{x.quote[:30]}"


@pytest.mark.parametrize("treaty,rid,cq", CITATIONS, ids=[f"{t}-{r}-{_id(c)}" for t, r, c in CITATIONS])
def test_quote_occurs_in_cited_unit(treaty: str, rid: str, cq: CitedQuote) -> None:
    assert cq.citation.doc in sources(), f"{rid}: documento {cq.citation.doc} não está no catálogo"
    texts, level = unit_texts(cq)
    assert texts, f"{rid}: nenhuma unidade em {_id(cq)}"
    quote = raw_form(cq.citation.quote) if cq.citation.doc in ocr_docs() else normalise_ws(cq.citation.quote)
    assert any(quote in normalise_ws(t) for t in texts), (
        f"{rid}: citação não encontrada ({level}) em {_id(cq)}:\n{quote!r}\n--- unidade:\n{texts[0][:600]!r}")


@pytest.mark.parametrize("treaty,rid,value,cq", VALUES, ids=[f"{t}-{r}" for t, r, _, _ in VALUES])
def test_value_occurs_in_its_quote(treaty: str, rid: str, value: float | str, cq: CitedQuote) -> None:
    assert number_in(value, cq.citation.quote), f"{rid}: o valor {value} não aparece na citação {cq.citation.quote!r}"


@pytest.mark.parametrize("treaty,rid,value,cits", PARAMS, ids=[f"{t}-{r}" for t, r, _, _ in PARAMS])
def test_condition_threshold_occurs_in_a_quote(treaty: str, rid: str, value: float, cits) -> None:
    assert any(number_in(value, c.citation.quote) for c in cits), f"{rid}: o limiar {value} não aparece nas citações"


def test_an_ocr_quote_stitched_from_the_portuguese_stream_is_refused() -> None:
    """BR-ES 14(1) in the raw OCR: the Spanish column cuts "sociedade residente | desse outro Estado"."""
    stitched = CitedQuote(doc="br-es-1974", treaty="BR-ES", article="14", paragraph="1",
                          quote="ou a uma sociedade residente desse outro Estado")
    texts, _ = unit_texts(stitched)
    assert texts and not any(raw_form(stitched.quote) in t for t in texts)
    assert any("ou a uma sociedade residente" in t for t in texts)


# The words that decide a right or a condition: every case (and relief entry) of a full convention must
# carry them in one of its quotes (Portuguese, or the Spanish column where the OCR cuts the Portuguese).
RIGHT_WORDS = {
    "exclusive": r"\bsó\b|somente|\bsólo|sólamente|unicamente|únicamente",
    "shared": r"tribut|someterse|imposición|em ambos",
    "capped": r"tribut|someterse|imposición|imposto",
    "exempt": r"isent|exent|não será tributada|não são tributáveis",
}
# A right the text leaves implicit: the residence State keeps a shared right where the source is exempt or capped.
CONDITION_WORDS = {
    "national_of_paying_state": (r"naciona",), "national_of_residence_state": (r"naciona",),
    "government_debt": (r"dívida pública",), "beneficiary_government_agency": (r"governo",),
    "beneficiary_government": (r"governo",), "pension_social_security": (r"previdência|segurança|seguridad",),
    "pension_government": (r"pen",), "government_business": (r"comercial ou industrial",),
    "fee_borne_by_company_or_pe": (r"sociedade residente", r"estabelecimento"),
    "paid_by_source_resident": (r"pagas por um residente",),
    # art. 19: where the public services are rendered; art. 15(1): where the employment is exercised
    "services_in_residence_state": (r"serviços forem prestados nesse estado|emprego seja exercido no outro",),
    "resident_not_solely_for_services": (r"única finalidade",),
    "student_employment_for_studies": (r"ajudar os seus estudos",),
    "stay_within_calendar_years": (r"consecutivos",),
    "teaching_visit_invited_or_exchange": (r"convite", r"intercâmbio", r"conferências"),
    "invited_to_teach_or_research": (r"convite",), "student_payments_abroad": (r"exterior|fora dele",),
    "student_practical_training": (r"formação prática",), "arises_in_other_state": (r"provenientes do outro",),
    "attributable_to_pe": (r"estabelecimento",), "payer_taxed_not_exempt": (r"não abrangida por qualquer isenção",),
    "holding_min_years_or_since_formed": (r"constituição",), "holding_direct": (r"directamente",),
    "public_funds_visit": (r"fundos públicos",), "employment_183_met": (r"primeir",),
    "gain_immovable": (r"imobili",), "gain_pe_assets": (r"estabelecimento|instalação fixa",),
    "gain_ships_aircraft": (r"navios",), "employment_ship_aircraft": (r"navio",), "pension_annuity": (r"anuidade",),
    "beneficiary_company": (r"sociedade",),
}


def _decided() -> list[tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[CitedQuote, ...]]]:
    """(treaty, id, rights, condition codes, citations) of every case and relief entry of a full convention."""
    out = []
    for t, d in TREATIES.items():
        if d.coverage != "full" or len(d.parties) != 2:
            continue
        for spec in d.rights.values():
            out += [(t, c.id, tuple(r for role, r in c.rights.items() if role != "residence" or r == "exclusive"),
                     tuple(w.code for w in c.when), c.citations) for c in spec.cases]
        out += [(t, r.id, (), tuple(w.code for w in r.when), r.citations) for r in d.relief]
    return out


DECIDED = _decided()


@pytest.mark.parametrize("treaty,rid,rights,codes,cits", DECIDED, ids=[f"{t}-{r}" for t, r, *_ in DECIDED])
def test_quotes_carry_the_deciding_words(treaty: str, rid: str, rights: tuple[str, ...], codes: tuple[str, ...],
                                         cits: tuple[CitedQuote, ...]) -> None:
    text = " ".join(raw_form(c.citation.quote) for c in cits).lower()
    for right in set(rights) & set(RIGHT_WORDS):
        assert re.search(RIGHT_WORDS[right], text), f"{rid}: nenhuma citação diz o direito {right!r}"
    for code in codes:
        for words in CONDITION_WORDS.get(code, ()):
            assert re.search(words, text), f"{rid}: nenhuma citação tem {words!r} (condição {code})"


def test_number_check_rejects_a_changed_rate() -> None:
    quote = "o imposto assim estabelecido não excederá 15% do montante bruto dos juros"
    assert number_in(15, quote) and not number_in(10, quote) and not number_in(1, quote)
    assert number_in(3000, "equivalente a USS 3.000") and number_in(9, "exceder nove meses")
    assert not number_in(50, "mais de 500 euros") and number_in("2000-01-01", "a partir de 1º de janeiro de 2000")


def test_fallbacks_are_reported() -> None:
    """Not a pass/fail on the data: prints which citations needed an enclosing unit, so it stays visible."""
    used = {}
    for _, rid, cq in CITATIONS:
        _, level = unit_texts(cq)
        if level != "exact":
            used[_id(cq)] = level
    print("\ncitações verificadas numa unidade envolvente:", used or "nenhuma")
    assert all(level in ("paragraph", "article") for level in used.values())


def test_tie_breaker_alineas_resolve_to_their_own_words() -> None:
    """The PT-JP summary prints alíneas c) and d) in one bullet; mutual agreement is alínea d)
    and must be checked against the words of alínea d), not the enclosing paragraph."""
    steps = TREATIES["PT-JP"].residence_individual
    assert steps["mutual_agreement"].citation.subparagraph == "d"
    for step in ("nationality", "mutual_agreement"):
        texts, level = unit_texts(steps[step])
        assert level == "exact", step
        assert len(texts) == 1 and normalise_ws(steps[step].citation.quote) in texts[0]


_ADDRESS = re.compile(r"^([^()]+)(?:\(([^()]+)\))?$")


def test_every_absent_provision_is_absent_from_its_documents_text() -> None:
    """A data file's `absent` provision (answered as "the corpus lacks it") has no unit in the parsed text of
    any document of that treaty; a provision the corpus holds would be answered wrongly as missing."""
    catalog = load_catalog(DEFAULT_CORPUS_DIR)
    checked = 0
    for data in load_all().values():
        for absent in data.absent:
            article, paragraph = _ADDRESS.match(absent.article).groups()
            docs = [sources()[d.id] for d in catalog if d.treaty == data.treaty]
            assert docs, (data.treaty, absent)
            assert all(not doc.find(article, paragraph) for doc in docs), (data.treaty, absent.article)
            assert any(doc.find(article) for doc in docs)   # the article itself is there, in part
            checked += 1
    assert checked
