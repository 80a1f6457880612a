"""The ways eval.perturb retypes a ticket: each changes only what it says it changes."""
from __future__ import annotations

from eval.perturb import MODES, lower_unaccented, no_closing_marks, one_line, phone, swapped_letters

TEXT = "Olá!\nSou residente em Portugal e recebo dividendos de Curitiba. ¿Y la retención? Qual a taxa máxima?"


def test_no_closing_marks_leaves_the_opening_spanish_one():
    assert no_closing_marks(TEXT) == TEXT.replace("?", "") and "¿" in no_closing_marks(TEXT)


def test_lower_unaccented_keeps_the_letters():
    assert lower_unaccented("Qual a Retenção MÁXIMA?") == "qual a retencao maxima?"


def test_one_line_flattens_breaks_only():
    assert one_line("a\n\nb  c\td") == "a b c d"


def test_swapped_letters_is_repeatable_and_keeps_each_words_letters():
    typed = swapped_letters(TEXT, share=1.0)
    assert typed == swapped_letters(TEXT, share=1.0) and typed != TEXT
    for a, b in zip(TEXT.split(), typed.split()):
        assert sorted(a) == sorted(b) and a[0] == b[0] and a[-1] == b[-1]
    assert swapped_letters(TEXT, share=0.0) == TEXT


def test_every_mode_is_listed():
    assert set(MODES) == {"no_closing_marks", "lower_unaccented", "one_line", "swapped_letters", "phone"}


def test_phone_shortens_whole_words_only():
    assert phone("Você sabe quanto retém? E também, para quando é que tenho que declarar?") == \
        "vc sabe qto retem? e tb, pra qdo e q tenho q declarar?"
    assert phone("Quantos dias? Paraná") == "quantos dias? parana"
