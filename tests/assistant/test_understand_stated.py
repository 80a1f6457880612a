"""stated_facts(): the reading named as the ticket bank names facts, only those that decide the topic read.
Phrasings written for these tests (none is in the eval set or the ticket bank)."""
from __future__ import annotations

from assistant.understand import understand
from assistant.understand.stated import read_facts, stated_facts
from eval.tickets import FACT_TYPES

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def read(text: str) -> dict:
    return stated_facts(understand(text, TREATIES))


def test_every_name_is_a_bank_fact_name():
    texts = ["A minha empresa portuguesa tem uma sucursal em São Paulo. Quem tributa os lucros?",
             "Detenho 30% de uma sociedade brasileira há 3 anos e moro em Lisboa; e os dividendos?",
             "Tengo casa en Madrid y en São Paulo, nacionalidad española. ¿Dónde soy residente?",
             "Worked 200 days in Spain in 2023 for a Brazilian employer, I live in São Paulo."]
    for text in texts:
        assert set(read(text)) <= set(FACT_TYPES), text


def test_flat_facts_and_both_groups_are_mapped():
    got = read("Detenho 30% de uma sociedade brasileira há 3 anos e moro em Lisboa; e os dividendos?")
    assert got["holding_pct"] == 30 and got["holding_months"] == 36
    got = read("Trabalhei 200 dias em Espanha em 2023 para um empregador brasileiro; moro em São Paulo.")
    assert got["stay_days"] == 200 and got["fiscal_year"] == 2023
    assert got["employer_resident_in_work_state"] is False
    got = read("Tengo casa en Madrid y en São Paulo, nacionalidad española. ¿Dónde soy residente?")
    assert got["permanent_home_in"] == ["BR", "ES"] and got["nationality"] == ["ES"]


def test_where_the_branch_is():
    q = understand("A minha empresa portuguesa tem uma sucursal em São Paulo. Quem tributa os lucros da sucursal?",
                   TREATIES)
    assert read_facts(q)["pe_in"] == "BR"


def test_a_fact_not_read_is_absent():
    assert "holding_pct" not in read("Recebo dividendos de uma empresa brasileira e moro no Porto.")


def test_only_facts_that_decide_the_topic_are_stated():
    q = understand("Sou brasileiro, moro em Lisboa e recebo dividendos de uma empresa espanhola onde tenho 30%.",
                   TREATIES)
    assert read_facts(q)["nationality"] == ["BR"]                 # read
    got = stated_facts(q)
    assert "nationality" not in got and got["holding_pct"] == 30   # but a nationality decides no dividend cap


def test_dual_nationality_decides_a_pension():
    got = read("Tenho dupla nacionalidade e recebo pensão de servidor do Estado brasileiro; moro em Lisboa.")
    assert got["nationality"] == ["BR", "PT"] and got["national_of_paying_state"] is True


def test_a_fact_that_decides_another_part_is_stated():
    """The ticket's parts are answered with the ticket's facts: a fact that decides one part's topic ("vivo em
    Faro": the saver is an individual, which the interest rules ask) is stated though the first topic is a
    pension."""
    q = understand("Vivo em Faro e recebo uma pensão do INSS. Quem tributa? E o rendimento da minha aplicação "
                   "no Itaú?", TREATIES)
    assert q.topics == ("pensions",) and "beneficiary_kind" not in stated_facts(q)
    assert stated_facts(q, ["pensions", "interest"])["beneficiary_kind"] == "individual"
