"""No stated fact is contradicted by an "assumed not to apply" line (issue 17, Done when): over every train
ticket of the bank, an assumption the rules make (a condition status assumed_not_met, which the card writes
as "Assume-se que não se verifica: …") must not be met by a fact the ticket states. Over the eval questions,
which carry no fact labels, no assumption may name a fact the reading holds."""
from __future__ import annotations

import dataclasses

import pytest

import rules
from assistant.apply_rules import run_rules
from assistant.understand import understand
from eval.gold import load_eval_set
from eval.tickets import load
from rules import Facts
from rules.conditions import evaluate

FIELDS = {f.name for f in dataclasses.fields(Facts)}


def _assumptions(text: str, topic: str | None = None):
    query = understand(text, rules.known_treaties(), topic=topic)
    run = run_rules(query, query.facts)
    return query, [c for r in (*run.withholding, *run.rights) for c in r.assumptions]


def test_no_ticket_fact_is_assumed_away():
    tickets = load("train")
    if not tickets:
        pytest.fail("the train split of the ticket bank is empty")
    contradicted = []
    for ticket in tickets:
        stated = {f.name: f.value for f in ticket.facts if f.name in FIELDS}
        if not stated:
            continue
        # the labelled topic of the first question: the facts and rules are on trial here, not the topic reader
        topic = next((p.topic for p in ticket.parts if p.topic != "out_of_scope"), None)
        for c in _assumptions(ticket.text, topic)[1]:
            names = [n for n in c.facts if n in stated]
            if names and evaluate(c.code, c.params, Facts(**{n: stated[n] for n in names})).status == "met":
                contradicted.append(f"{ticket.id}: assumed not {c.code}, but {[(n, stated[n]) for n in names]}")
    assert not contradicted, "\n".join(contradicted)


def test_no_question_has_an_assumption_on_a_fact_it_states():
    wrong = []
    for item in load_eval_set():
        query, assumed = _assumptions(item.question)
        for c in assumed:
            held = [n for n in c.facts if getattr(query.facts, n, None) is not None]
            if held:
                wrong.append(f"{item.id}: assumed not {c.code}, but the reading holds {held}")
    assert not wrong, "\n".join(wrong)
