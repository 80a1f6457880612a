"""whole_sentences: the explanation shown never ends mid-sentence when the token cap cuts it."""
import pytest

from assistant.llm import whole_sentences


@pytest.mark.parametrize("text,expected", [
    ("A taxa é 10% [1]. O Brasil", "A taxa é 10% [1]."),
    ("A taxa é 10%. [1] [2] Portugal elimina", "A taxa é 10%. [1] [2]"),
    ("Only Brazil may tax it [2]! And", "Only Brazil may tax it [2]!"),
    ("¿Quién grava? Solo España [3]. Además, el", "¿Quién grava? Solo España [3]."),
    ("Tudo certo [1].", "Tudo certo [1]."),
    ("O art. 10.º fixa 15% [1]. Mas", "O art. 10.º fixa 15% [1]."),
    ("A taxa é 10% [1]. Ver o art. 10", "A taxa é 10% [1]."),
    ("See para. 2 of art. 18 [1]. Also", "See para. 2 of art. 18 [1]."),
    ("sem frase completa", "sem frase completa"),
    ("  A taxa é 1.5 por cento.  ", "A taxa é 1.5 por cento."),
])
def test_whole_sentences(text: str, expected: str) -> None:
    assert whole_sentences(text) == expected
