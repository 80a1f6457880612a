"""residence_tiebreaker(), figures(), coverage() and applicable_documents()."""
from __future__ import annotations

import pytest

from rules import (
    NotCovered,
    RulesInputError,
    TiebreakerFacts,
    TiebreakerResult,
    absent_provision,
    applicable_documents,
    coverage,
    figures,
    known_treaties,
    residence_tiebreaker,
    treaty_for,
)

BOTH = ("PT", "BR")


@pytest.mark.parametrize("facts,result,step", [
    (TiebreakerFacts(permanent_home_in=("BR",)), "BR", "permanent_home"),
    (TiebreakerFacts(permanent_home_in=BOTH, vital_interests_in="PT"), "PT", "vital_interests"),
    (TiebreakerFacts(permanent_home_in=BOTH, vital_interests_in="undetermined", habitual_abode_in=("BR",)),
     "BR", "habitual_abode"),
    (TiebreakerFacts(permanent_home_in=(), habitual_abode_in=("PT",)), "PT", "habitual_abode"),
    (TiebreakerFacts(permanent_home_in=(), habitual_abode_in=BOTH, nationality=("PT",)), "PT", "nationality"),
    (TiebreakerFacts(permanent_home_in=(), habitual_abode_in=(), nationality=BOTH), "mutual_agreement",
     "mutual_agreement"),
    (TiebreakerFacts(person="company", effective_management_in="BR"), "BR", "effective_management"),
])
def test_each_step_can_decide(facts: TiebreakerFacts, result: str, step: str) -> None:
    r = residence_tiebreaker("PT-BR", facts)
    assert isinstance(r, TiebreakerResult)
    assert (r.result, r.deciding_step, r.missing_facts) == (result, step, [])
    assert r.citations[-1].article == "4"


def test_missing_fact_stops_and_is_named() -> None:
    r = residence_tiebreaker("BR-ES", TiebreakerFacts(permanent_home_in=("BR", "ES")))
    assert r.result is None and r.missing_facts == ["vital_interests_in"]
    assert residence_tiebreaker("PT-JP", TiebreakerFacts()).missing_facts == ["permanent_home_in"]


def test_summary_has_no_company_rule_and_bad_states_are_refused() -> None:
    assert isinstance(residence_tiebreaker("PT-JP", TiebreakerFacts(person="company", effective_management_in="JP")),
                      NotCovered)
    with pytest.raises(RulesInputError):
        residence_tiebreaker("PT-BR", TiebreakerFacts(permanent_home_in=("FR",)))


def test_fixed_figures_by_topic() -> None:
    def values(treaty: str, topic: str) -> set:
        return {f.value for f in figures(treaty, topic) if f.value is not None}
    assert values("PT-BR", "permanent_establishment") == {9}
    assert values("BR-ES", "permanent_establishment") == {6}
    assert values("PT-BR", "students") == {1, 10000} and values("BR-ES", "students") == {4}
    assert values("PT-BR", "professors") == values("BR-ES", "professors") == {2}
    assert values("BR-ES", "pensions") == {3000} and values("BR-ES", "tax_sparing") == {20, 25}
    assert values("PT-BR", "double_taxation_relief") == {95}
    assert values("PT-BR", "mutual_agreement") == {2} and values("MLI", "mutual_agreement") == {3}
    # BR-ES art. 25(1) names the authority and no time limit: a figure without a number
    assert [f.id for f in figures("BR-ES", "mutual_agreement")] == ["br-es.mutual-agreement.authority"]
    assert values("MLI", "anti_abuse") == {365, 60, 50} and 50 in values("MLI", "capital_gains")
    assert values("MLI", "permanent_establishment") == {30, 50}     # contract splitting, closely related (art. 15)
    assert "2000-01-01" in values("PT-BR", "entry_into_force")
    # BR-ES art. 29 gives the rule (1 January after the exchange of ratifications), not a date
    assert [f.id for f in figures("BR-ES", "entry_into_force")] == ["br-es.termination.notice",
                                                                     "br-es.entry-into-force"]
    assert 6 in values("PT-BR", "entry_into_force") and 3 in values("BR-ES", "entry_into_force")   # termination
    assert all(f.citations for f in figures("BR-ES", "tax_sparing"))


def test_uncovered_pairs_and_topics_return_not_covered() -> None:
    for result in (figures("PT-FR", "dividends"), figures("PT-BR", "vat"), figures("PT-JP", "tax_sparing"),
                   treaty_for("PT", "FR"), applicable_documents("ES-FR")):
        assert isinstance(result, NotCovered) and result.covered and result.message
    assert treaty_for("br", "pt") == "PT-BR"
    assert known_treaties() == {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP")}


def test_mli_modifies_only_what_the_corpus_says() -> None:
    def relation(treaty: str) -> str:
        return next(d.relation for d in applicable_documents(treaty) if d.doc == "mli-pt-2019")
    assert relation("PT-JP") == "modifies"
    assert relation("PT-BR") == relation("BR-ES") == "not_established"
    pt_br = {d.doc: d.relation for d in applicable_documents("PT-BR")}
    assert pt_br["br-portaria-pt-br"] == "implementing_order" and pt_br["pt-br-2000"] == "treaty_text"
    mli = next(d for d in applicable_documents("PT-JP") if d.doc == "mli-pt-2019")
    assert "9" in mli.text and mli.citations[0].doc == "pt-jp-2011-summary"


def test_coverage_lists_every_data_file() -> None:
    by_id = {c.treaty: c for c in coverage()}
    assert set(by_id) == {"PT-BR", "BR-ES", "PT-JP", "MLI"}
    assert by_id["PT-JP"].coverage == "summary" and "technical_services" not in by_id["PT-JP"].incomes
    assert by_id["PT-BR"].to_dict()["documents"] == ["pt-br-2000", "br-portaria-pt-br"]


def test_an_instruments_figures_answer_the_incomes_they_name() -> None:
    """The MLI caps no rate: a dividend question under it gets art. 8's 365 days (and art. 10's third-jurisdiction
    PE test); a royalty question only art. 10; an income it does not touch, nothing."""
    from rules.protocol import Case, apply

    def articles(topic: str) -> set[str]:
        found = apply("MLI", Case(topic=topic))
        return set() if isinstance(found, NotCovered) else {c.article for f in found for c in f.citations}
    assert articles("dividends") == {"8", "10"}
    assert articles("royalties") == {"10"}
    assert articles("pensions") == set()


def test_a_figure_for_an_unknown_topic_is_refused() -> None:
    from pydantic import ValidationError

    from rules.treaty_data import FigureSpec
    with pytest.raises(ValidationError):
        FigureSpec.model_validate({"id": "x.y", "topic": "dividends", "unit": "days", "also_topics": ["dividendz"],
                                   "citations": [{"doc": "mli-pt-2019", "article": "8", "quote": "365 dias"}]})


def test_a_provision_the_corpus_lacks_is_named_not_answered() -> None:
    """The MLI's principal purpose test (art. 7(1)) is outside the corpus's excerpt (from 7(9)): a question
    that names it, about any treaty, gets what is missing; one that names nothing, or asks another topic, none."""
    for treaty in ("PT-BR", "PT-JP", "MLI"):
        lack = absent_provision(treaty, "anti_abuse", {"MLI:7(1)"})
        assert isinstance(lack, NotCovered) and "7(1)" in lack.message_in("en")
    assert absent_provision("PT-BR", "anti_abuse", set()) is None
    assert absent_provision("PT-BR", "dividends", {"MLI:7(1)"}) is None
