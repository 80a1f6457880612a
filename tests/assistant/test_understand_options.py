"""Options a ticket weighs: each question on one is read with its statement only."""
from __future__ import annotations

import pytest

from assistant.understand.options import named_option, own_option

INLINE = ("Estamos a estudar duas hipóteses: (a) um agente independente em Lisboa; (b) um gerente nosso que assina "
          "contratos em Lisboa.\nNa hipótese (a), há estabelecimento estável? E na (b)?")
LINES = ("Two options:\n> (A) I stay on the Porto payroll;\n> (B) I sign a local contract with the Osaka company.\n"
         "Under option A, does Japan tax my salary? Under option B?")


@pytest.mark.parametrize("question, label", [
    ("Na hipótese (a), há estabelecimento estável?", "a"),
    ("E na (b)?", "b"),
    ("Under option B, same question?", "b"),
    ("¿Y con la opción A?", "a"),
    ("Em que cenário 2 pago menos?", "2"),
    ("Quem tributa a pensão?", None),
    ("And what about a bonus?", None),
    # an article's subparagraph is no option
    ("Does art. 10(2)(a) cap it at 10%?", None),
    ("Aplica-se o n.º 2(b) do artigo 12?", None),
])
def test_the_option_a_question_names(question, label):
    assert named_option(question) == label


@pytest.mark.parametrize("text, question, kept, blanked", [
    (INLINE, "Na hipótese (a), há estabelecimento estável?", "agente independente", "assina contratos"),
    (INLINE, "E na (b)?", "assina contratos", "agente independente"),
    (LINES, "Under option A, does Japan tax my salary?", "Porto payroll", "local contract"),
    (LINES, "Under option B?", "local contract", "Porto payroll"),
])
def test_a_question_on_an_option_reads_the_ticket_without_the_others(text, question, kept, blanked):
    read = own_option(text, question)
    assert len(read) == len(text) and text.index(question) == read.index(question)
    assert kept in read and blanked not in read


@pytest.mark.parametrize("text, question", [
    (INLINE, "Quem tributa os lucros?"),                   # names no option
    ("Temos uma hipótese: (a) um agente independente em Lisboa.\nNa hipótese (a), há estabelecimento estável?",
     "Na hipótese (a), há estabelecimento estável?"),      # one option only: nothing to choose between
    (INLINE, "Na hipótese (c), há estabelecimento estável?"),   # an option the ticket does not state
    ("1) Quem tributa a pensão?\n2) E o aluguel?", "E na (b)?"),  # a list of questions states no options
])
def test_the_ticket_stays_whole_when_no_option_is_chosen_among_several(text, question):
    assert own_option(text, question) == text
