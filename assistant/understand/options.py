"""A ticket that weighs options and asks of each: "dudamos entre dos opciones: (a) nombrar un representante…;
(b) contratar a un gerente… Con la opción (a), ¿podría Brasil gravar…? ¿Y con la opción (b)?". Each question
is read with the statement of the option it names, not with the others' (an agent who signs contracts in
option (b) makes no PE of option (a)'s independent one).
"""
from __future__ import annotations

import re
from functools import lru_cache

# An option's statement opens with its letter in brackets at the start of a line (after a quote mark or a
# bullet) or after a colon or semicolon ("Barajamos dos opciones: (a) contratar…; (b) trabajar…"), or with
# its name and label at the start of a line ("Option A: in-house transfer…", "Cenário 2 -").
_OPTION_WORDS = (r"option|opção|opcao|opción|opcion|hipótese|hipotese|hipótesis|hipotesis|cenário|cenario|"
                 r"escenario|scenario|alternativa|alternative")
_STATED = re.compile(rf"(?:^|(?<=[:;]))[ \t>*•-]*(?:\(([a-dA-D])\)|([a-dA-D])\)|(?:{_OPTION_WORDS})[ \t]+"
                     rf"\(?([a-dA-D1-3])\)?[ \t]*[:.)–-])[ \t]", re.M | re.I)
# A question names an option by its name and label ("Under option B", "Na hipótese (a)", "opción b") or by its
# bracketed letter alone ("E na (b), …?"), not an article's subparagraph ("art. 10(2)(a)").
_NAMED = re.compile(rf"\b(?:{_OPTION_WORDS})[ \t]+\(?([a-d1-3])\b\)?|(?<![\w)])\(([a-d])\)", re.I)


@lru_cache(maxsize=256)
def _statements(text: str) -> tuple[tuple[str, int, int], ...]:
    """Each option's label and the span of its statement: up to the next option or the end of its line."""
    marks = list(_STATED.finditer(text))
    out = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        line_end = text.find("\n", m.end())
        end = min(end, line_end) if line_end >= 0 else end
        label = next(g for g in m.groups() if g).lower()
        out.append((label, m.start(), end))
    return tuple(out)


def named_option(question: str) -> str | None:
    """The label of the option a question names, if any."""
    m = _NAMED.search(question)
    return next(g for g in m.groups() if g).lower() if m else None


def own_option(text: str, question: str) -> str:
    """The ticket as a question on one of its options reads it: the other options' statements blanked (the
    same length, so the question's offsets hold). The ticket as it is when the question names no option, or
    the ticket states fewer than two."""
    label = named_option(question)
    stated = [s for s in _statements(text) if text.find(question) not in range(s[1], s[2])]
    if label is None or len({s[0] for s in stated}) < 2 or label not in {s[0] for s in stated}:
        return text
    for other, start, end in stated:
        if other != label:
            text = text[:start] + " " * (end - start) + text[end:]
    return text
