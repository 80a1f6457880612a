"""`python -m eval.perturb --mode no_closing_marks`: how much the reading of the train split depends on how a ticket is
typed. Each ticket is asked as written and as typed another way (no "?", lower case without accents, on one line,
a few letters swapped), and the parts answered right are counted both ways.

A probe of robustness, not a score: the readers are the installed ones, trained on this very split, so the
absolute figures are optimistic; the difference between the two columns is what it measures.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import unicodedata
from typing import Callable

from eval.tickets import load
from eval.tickets_run import reading_of
from eval.tickets_score import score_ticket


def no_closing_marks(text: str) -> str:
    """Every "?" left off (Spanish "¿" kept)."""
    return text.replace("?", "")


def lower_unaccented(text: str) -> str:
    """Lower case with the accents stripped, as on a phone without them."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn").lower()


def one_line(text: str) -> str:
    """Line breaks (lists, signatures, forwarded headers) flattened to spaces."""
    return re.sub(r"\s+", " ", text)


_WORD = re.compile(r"[^\W\d_]{5,}")


def swapped_letters(text: str, share: float = 0.12) -> str:
    """Two inner letters swapped in about `share` of the words of five letters or more; the same text always gets
    the same typos."""
    rnd = random.Random(len(text))

    def swap(m: re.Match[str]) -> str:
        w = m.group(0)
        if rnd.random() > share:
            return w
        i = rnd.randrange(1, len(w) - 2)
        return w[:i] + w[i + 1] + w[i] + w[i + 2:]
    return _WORD.sub(swap, text)


# How a phone message shortens Portuguese and Spanish words (pt-BR and Spanish chat)
_PHONE = {"que": "q", "quanto": "qto", "quando": "qdo", "porque": "pq", "voce": "vc", "tambem": "tb",
          "tambien": "tb", "para": "pra"}
_PHONE_WORD = re.compile(r"\b(" + "|".join(_PHONE) + r")\b")


def phone(text: str) -> str:
    """Lower case without accents, and the words a phone message shortens shortened ("tenho q pagar", "qto retém",
    "vc tb")."""
    return _PHONE_WORD.sub(lambda m: _PHONE[m.group(1)], lower_unaccented(text))


MODES: dict[str, Callable[[str], str]] = {"no_closing_marks": no_closing_marks, "lower_unaccented": lower_unaccented,
                                          "one_line": one_line, "swapped_letters": swapped_letters, "phone": phone}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.perturb")
    parser.add_argument("--mode", choices=sorted(MODES), required=True)
    parser.add_argument("--every", type=int, default=8, help="one train ticket in N")
    args = parser.parse_args(argv)
    from assistant.pipeline import Assistant
    from config import load_settings

    assistant = Assistant.from_settings(load_settings(), llm="none", dense=True)
    change = MODES[args.mode]
    parts = as_written = as_typed = 0
    for ticket in load("train")[::args.every]:
        written = score_ticket(ticket, reading_of(assistant.ask(ticket.text)))
        typed = score_ticket(ticket, reading_of(assistant.ask(change(ticket.text))))
        parts += len(written.parts)
        as_written += sum(p.answer_correct for p in written.parts)
        as_typed += sum(p.answer_correct for p in typed.parts)
    print(f"{args.mode}: {parts} parts; answered right as written {as_written}, as typed {as_typed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
