"""SentenceBuffer: streamed tokens come out as whole sentences (each checked before it is shown); a sentence
cut by the token cap stays in the unfinished tail."""
import pytest

from assistant.llm import SentenceBuffer


def _stream(text: str, step: int = 3) -> tuple[list[str], str]:
    buffer, out = SentenceBuffer(), []
    for i in range(0, len(text), step):
        out += buffer.feed(text[i:i + step])
    done, tail = buffer.finish()
    return out + done, tail


@pytest.mark.parametrize("text,sentences,tail", [
    ("A taxa é 10% [1]. O Brasil", ["A taxa é 10% [1]."], "O Brasil"),
    ("A taxa é 10%. [1] [2] Portugal elimina", ["A taxa é 10%. [1] [2]"], "Portugal elimina"),
    ("Only Brazil may tax it [2]! And", ["Only Brazil may tax it [2]!"], "And"),
    ("¿Quién grava? Solo España [3]. Además, el", ["¿Quién grava?", "Solo España [3]."], "Además, el"),
    ("Tudo certo [1].", ["Tudo certo [1]."], ""),
    ("O art. 10.º fixa 15% [1]. Mas", ["O art. 10.º fixa 15% [1]."], "Mas"),
    ("A taxa é 10% [1]. Ver o art. 10", ["A taxa é 10% [1]."], "Ver o art. 10"),
    ("See para. 2 of art. 18 [1]. Also", ["See para. 2 of art. 18 [1]."], "Also"),
    ("sem frase completa", [], "sem frase completa"),
    ("  A taxa é 1.5 por cento.  ", ["A taxa é 1.5 por cento."], ""),
])
def test_sentences_in_any_token_split(text: str, sentences: list[str], tail: str) -> None:
    for step in (1, 3, 100):
        assert _stream(text, step) == (sentences, tail)


def test_a_sentence_is_released_once_the_next_begins() -> None:
    buffer = SentenceBuffer()
    assert buffer.feed("O limite é 10%.") == []
    assert buffer.feed(" [1]") == []
    assert buffer.feed(" Portugal") == ["O limite é 10%. [1]"]
    assert buffer.released == 1
