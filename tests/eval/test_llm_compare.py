"""eval.llm_compare: the stratified choice of items and the scorer's own claim check against gold labels."""
from __future__ import annotations

from eval.gold import load_eval_set
from eval.llm_compare import (
    Item,
    holds,
    load_items,
    model_contradictions,
    scorer_contradictions,
    stratified,
    summarise,
    verdict,
)
from eval.tickets import Ticket

PENSION = Ticket.model_validate({
    "id": "tk-x-0001", "text": "Sou aposentado do INSS e moro em Portugal. Onde pago imposto?", "language": "pt",
    "variant": "pt-BR", "style": "one_liner", "source_url": "https://example.org/p", "treaty": "PT-BR",
    "residence_state": "PT", "source_state": "BR",
    "parts": [{"question": "Onde pago imposto?", "topic": "pensions",
               "expected": {"outcome": "source_only", "state": "BR", "articles": ["18(2)"]}}]})


def test_stratified_spreads_over_splits_and_languages_and_is_deterministic():
    items = load_items("questions") + load_items("tickets:train")
    chosen = stratified(items, 40)
    assert len(chosen) == 40 and len({i.id for i in chosen}) == 40
    assert {i.split for i in chosen} == {i.split for i in items}
    assert {i.language for i in chosen} == {"pt", "es", "en"}
    assert [i.id for i in stratified(list(reversed(items)), 40)] == [i.id for i in chosen]


def test_scorer_judges_the_shown_text_against_the_ticket_labels():
    assert scorer_contradictions(PENSION, "Só o Brasil pode tributar a sua pensão [1].", "pt") == []
    assert scorer_contradictions(PENSION, "Portugal pode tributar a sua pensão.", "pt") == ["PT:taxes"]
    assert scorer_contradictions(PENSION, "A pensão é tributada apenas em Portugal.", "pt") == ["PT:alone"]
    assert scorer_contradictions(PENSION, "", "pt") == []


def test_scorer_judges_rates_against_the_gold_rates():
    item = next(i for i in load_eval_set() if sorted(i.rates) == [10.0, 15.0] and not i.rates_allowed)
    assert scorer_contradictions(item, "O Brasil retém no máximo 15% [1].", "pt") == []
    assert scorer_contradictions(item, "O Brasil retém no máximo 12% [1].", "pt") == ["rate 12"]
    assert scorer_contradictions(item, "Os dividendos estão isentos.", "pt") == ["exemption"]


def test_the_default_holds_only_without_shown_contradictions_and_no_loss():
    base = {"id": "a", "split": "s", "topic": "t", "language": "pt", "guardrail": "passed", "sentences_kept": 1,
            "sentences_dropped": 0, "check_contradicted": 0, "times_ms": {"total": 1.0}}
    base["notes"] = []
    good = [dict(base, id=str(k), correct_without=True, correct_with=True, scorer_contradicted=[]) for k in range(120)]
    assert holds(summarise(good)) and verdict(summarise(good), 120) == "cumpre"
    assert not holds(summarise(good[:10])) and "incompleta" in verdict(summarise(good[:10]), 120)
    worse = good[1:] + [dict(base, correct_without=True, correct_with=False, scorer_contradicted=[])]
    assert not holds(summarise(worse))
    shown = good[1:] + [dict(base, correct_without=True, correct_with=True, scorer_contradicted=["PT:taxes"])]
    assert not holds(summarise(shown)) and verdict(summarise(shown), 120) == "não cumpre"


def test_a_wrong_card_the_model_repeats_is_counted_but_not_as_the_models():
    base = {"id": "a", "split": "s", "topic": "t", "language": "pt", "guardrail": "passed", "sentences_kept": 1,
            "sentences_dropped": 0, "check_contradicted": 0, "times_ms": {"total": 1.0}, "notes": [],
            "correct_without": False, "correct_with": False}
    repeated = dict(base, scorer_contradicted=["PT:taxes", "rate 15"], card_contradicted=["PT:taxes"])
    older = dict(base, id="b", scorer_contradicted=["BR:alone"])      # a record written before the field
    summary = summarise([repeated, older])
    assert summary["scorer_contradicted_shown"] == 3 and summary["scorer_contradicted_model"] == 2
    assert model_contradictions(repeated) == ["rate 15"]


def test_item_keeps_its_source_gold():
    item = load_items("tickets:train")[0]
    assert isinstance(item, Item) and item.split == "tickets-train" and isinstance(item.gold, Ticket)
