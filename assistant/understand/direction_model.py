"""The trained direction reader: of a treaty's two States, which one the person (or company) lives in.

The grammar of assistant/understand/places.py gives each named country a role from the cue words right before
and after it; on real tickets that alone got the residence right in about two of three tickets (the ticket
bank's train split), because people write "PT resident", "moro no Porto", "a filial portuguesa da casa-mãe
japonesa", "vou 3 meses para Tóquio mas sou pago em Lisboa". A logistic regression learns from the bank which
words around a State's mentions make it the residence: per candidate State, the words in a window on each
side of each of its mentions (and of the other State's, marked apart), the grammar's roles, the order of
mention, whether it is named in an asking sentence, and the ticket's topic. Trained on the bank's train
split, fitted in seconds at first use and cached under cache_dir by the data's hash (no model file
committed). understand() takes its reading for every ticket on a treaty of two States (the grammar's
reading is one of its features).
"""
from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from assistant.lexicon.text import Token, fold, tokenize
from assistant.understand.fitted import load_or_fit, reading_code_digest
from assistant.understand.language import detect_language
from assistant.understand.places import Grammar, Mention, assign_roles, find_mentions
from assistant.understand.residence import pointed, read_residence
from assistant.understand.sentences import asking
from assistant.understand.topics import is_employment

WINDOW = 3                  # words each side of a mention, singly and as pairs ("moro em", "sou pago")
ALPHA = 1e-3                # L2 regularisation (grouped cross-validation on the train split)
FEATURES_VERSION = 4


@dataclass(frozen=True)
class DirectionExample:
    text: str
    parties: tuple[str, str]     # the treaty's two States
    residence: str               # one of parties
    topic: str | None
    group: str                   # the source page (cross-validation never splits one)
    grammar: str | None          # the residence the grammar reads (understand() without this model)


def _word_positions(tokens: list[Token]) -> tuple[list[str], list[int | None]]:
    """The ticket's words, and each token's position among them (None for punctuation)."""
    words: list[str] = []
    word_at: list[int | None] = []
    for t in tokens:
        word_at.append(len(words) if t.is_word else None)
        if t.is_word:
            words.append(t.norm)
    return words, word_at


def _window_words(words: list[str], word_at: list[int | None], m: Mention, side: str) -> list[str]:
    first = next((word_at[i] for i in range(m.start, m.end) if word_at[i] is not None), None)
    last = next((word_at[i] for i in range(m.end - 1, m.start - 1, -1) if word_at[i] is not None), None)
    if first is None or last is None:
        return []
    before = words[max(0, first - WINDOW):first]
    after = words[last + 1:last + 1 + WINDOW]
    out = [f"{side}L:{w}" for w in before] + [f"{side}R:{w}" for w in after]
    out += [f"{side}L2:{a}_{b}" for a, b in zip(before, before[1:])]
    out += [f"{side}R2:{a}_{b}" for a, b in zip(after, after[1:])]
    if before:
        out.append(f"{side}L1:{before[-1]}")
    if after:
        out.append(f"{side}R1:{after[0]}")
    return out


def party_features(text: str, tokens: list[Token], mentions: list[Mention], candidate: str, other: str,
                   topic: str | None, grammar: str | None) -> list[str]:
    """The words and roles around the candidate's mentions ("c") and the other State's ("o"); `grammar` is the
    residence the grammar read (or None)."""
    asked = [(s.start, s.end) for s in asking(text)]
    words, word_at = _word_positions(tokens)
    codes = list(dict.fromkeys(m.code for m in mentions))
    said = "c" if grammar == candidate else "o" if grammar == other else "-"
    feats = [f"topic:{topic or '-'}", f"grammar:{said}", f"grammar:{said}:{topic or '-'}"]
    # "moro aqui", "the flat here": the words around "here" are the words around the country it points to;
    # and what the tie-breaker clauses say of each State (a home, the family, the days spent there)
    here = pointed(tokens, mentions)
    clauses = read_residence(tokens, mentions, (candidate, other), fold(text), detect_language(text, tokens))
    for side, code in (("c", candidate), ("o", other)):
        feats += [f"{side}:{name}" for name, states in (("home", clauses.homes or ()), ("let", clauses.let_homes),
                                                        ("abode", clauses.abodes or ()), ("vital", (clauses.vital,)))
                  if code in states]
        for m in (m for m in here if m.code == code):
            feats.extend(_window_words(words, word_at, m, side))
        mine = [m for m in mentions if m.code == code]
        if not mine:
            feats.append(f"{side}:absent")
            continue
        feats.append(f"{side}:order:{min(codes.index(code), 2)}")
        feats.append(f"{side}:count:{min(len(mine), 3)}")
        for m in mine:
            feats.append(f"{side}:role:{m.role or '-'}")
            feats.append(f"{side}:role:{m.role or '-'}:{topic or '-'}")
            if m.company:
                feats.append(f"{side}:company")
            start = tokens[m.start].start
            if any(a <= start < b for a, b in asked):
                feats.append(f"{side}:asked")
                feats.append(f"{side}:asked:role:{m.role or '-'}")
            feats.extend(_window_words(words, word_at, m, side))
    return feats


def ticket_mentions(text: str, topic: str | None) -> tuple[list[Token], list[Mention]]:
    tokens = tokenize(text)
    mentions = find_mentions(text, tokens, detect_language(text, tokens))
    assign_roles(mentions, Grammar(tokens), is_employment((topic,) if topic else ()))
    return tokens, mentions


def bank_examples(tickets: Iterable) -> list[DirectionExample]:
    """Tickets whose treaty is a pair and whose residence is one of its States."""
    import rules
    from assistant.understand import understand

    treaties = rules.known_treaties()
    out = []
    for t in tickets:
        parties = tuple(dict.fromkeys(treaties.get(t.treaty or "", ())))
        if len(parties) == 2 and t.residence_state in parties:
            topic = t.parts[0].topic
            grammar = understand(t.text, treaties, topic=topic).residence_state
            out.append(DirectionExample(t.text, (parties[0], parties[1]), t.residence_state, topic, t.page,
                                        grammar))
    return out


def _rows(example: DirectionExample) -> list[tuple[list[str], int]]:
    tokens, mentions = ticket_mentions(example.text, example.topic)
    a, b, g = *example.parties, example.grammar
    return [(party_features(example.text, tokens, mentions, a, b, example.topic, g), int(example.residence == a)),
            (party_features(example.text, tokens, mentions, b, a, example.topic, g), int(example.residence == b))]


def _as_is(features: list[str]) -> list[str]:
    """The features are already words (a named function: the fitted vectorizer is pickled)."""
    return features


class DirectionModel:
    def __init__(self, classifier, vectorizer):
        self.classifier = classifier
        self.vectorizer = vectorizer

    @classmethod
    def fit(cls, examples: Sequence[DirectionExample]) -> "DirectionModel":
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.linear_model import LogisticRegression

        rows = [r for e in examples for r in _rows(e)]
        vectorizer = CountVectorizer(analyzer=_as_is, binary=True, min_df=2)
        x = vectorizer.fit_transform([f for f, _ in rows])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            classifier = LogisticRegression(C=1.0 / (ALPHA * len(rows)), max_iter=2000)
            classifier.fit(x, [y for _, y in rows])
        return cls(classifier, vectorizer)

    def residence(self, text: str, tokens: list[Token], mentions: list[Mention], parties: tuple[str, str],
                  topic: str | None, grammar: str | None) -> tuple[str, float]:
        """The likelier residence of the two States and its probability (the two candidates' scores
        normalised to sum to one)."""
        a, b = parties
        x = self.vectorizer.transform([party_features(text, tokens, mentions, a, b, topic, grammar),
                                       party_features(text, tokens, mentions, b, a, topic, grammar)])
        pa, pb = self.classifier.predict_proba(x)[:, 1]
        share = float(pa / (pa + pb)) if pa + pb > 0 else 0.5
        return (a, share) if share >= 0.5 else (b, 1.0 - share)


def _key(tickets: Sequence) -> str:
    """The training data's hash and the code that reads it (the grammar's roles are a feature), so a cached
    model is found without reading the bank again."""
    import sklearn

    payload = json.dumps([[t.text, t.treaty, t.residence_state, t.parts[0].topic] for t in tickets],
                         ensure_ascii=False)
    digest = hashlib.sha256(f"{FEATURES_VERSION}\0{WINDOW}\0{ALPHA}\0{sklearn.__version__}\0{payload}\0"
                            f"{reading_code_digest()}".encode())
    return digest.hexdigest()[:20]


def cached_model(tickets: Sequence, cache_dir: Path) -> DirectionModel:
    """The model fitted on these tickets, kept under cache_dir (never committed)."""
    return load_or_fit(cache_dir / "direction_model" / f"{_key(tickets)}.joblib",
                       lambda: DirectionModel.fit(bank_examples(tickets)),
                       lambda m: (m.classifier, m.vectorizer), DirectionModel)


_MODELS: dict[Path, DirectionModel] = {}


def trained_direction(cache_dir: Path) -> DirectionModel:
    """The direction reader trained on the ticket bank's train split, once per process."""
    if cache_dir not in _MODELS:
        from eval.tickets import load

        _MODELS[cache_dir] = cached_model(load("train"), cache_dir)
    return _MODELS[cache_dir]
