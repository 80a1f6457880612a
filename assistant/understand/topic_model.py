"""The trained topic reader: what one asking sentence of a ticket asks about, with a calibrated probability.

A linear SVM (scikit-learn's LinearSVC, its scores calibrated into probabilities by CalibratedClassifierCV with
temperature scaling) over
- word and character n-grams of the asking sentence, and the words of the whole ticket (its context),
- the lexicon's topic and out-of-scope hits, separately in the asking sentence and in the rest of the ticket,
- the places the ticket names and the roles the grammar gives them (residence, source, employer...),
- with a named embedding model (the one dense retrieval uses), the asking sentence's query vector: it reads
  what the words say in phrasings no n-gram was trained on (+3-4 points of topic accuracy on the train split,
  grouped cross-validation by page). Without one (BM25 only, a test's fake embedder), the rest alone.
Trained from data, never from a priority order: the ticket bank's train split (one example per part, its
gold question span as the asking sentence), the eval items whose category is a topic, and the example bank
(assistant/lexicon/exemplars.yaml). Fitted in seconds at first use and kept under cache_dir, keyed by the
training data's hash and the library's version; no model file is committed.

The training questions' vectors are computed once per machine (~2,900 short texts, ~2 min on 2 cores, kept
in the embedding cache by the model's fingerprint; `make readers` pays it before the app or the tests start).
"""
from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

import numpy as np

from assistant.lexicon import topics
from assistant.lexicon.text import fold, tokenize
from assistant.understand.exemplars import bank
from assistant.understand.fitted import load_or_fit, reading_code_digest
from assistant.understand.language import detect_language
from assistant.understand.places import Grammar, assign_roles, find_mentions
from assistant.understand.sentences import asking
from assistant.understand.topics import topic_matches
from rules.facts import TOPICS

if TYPE_CHECKING:
    from ingest.embedding_cache import QueryVectors

OUT_OF_SCOPE = "out_of_scope"
LABELS = TOPICS + (OUT_OF_SCOPE,)
CONTEXT_WEIGHT = 0.8        # the rest of the ticket counts, less than the words that ask (grouped CV)
# Inverse L2 regularisation of the linear SVM. Grouped CV on the train split (2,919 parts, gold question spans):
# a linear SVM with C 0.5 reads 84.7% (C 0.2: 84.6%, 1.0: 84.4%) against 83.8% for the SGD logistic regression
# it replaced, and it is stable: refitted without 15 random examples it changes 8 of 1,179 held-out readings,
# the SGD fit 37 (which made every lexicon change move unrelated parts).
C = 0.5
EMBEDDING_WEIGHT = 4.0      # the asking sentence's query vector against the sparse blocks (grouped CV: 2 -> 82.6%,
                            # 4 -> 82.9%, none -> 78.9% of the bank's parts)
ROLES = ("residence", "source", "work", "property", "home", "pe", "employer", "nationality", "vital",
         "former_residence", "government", "")
FEATURES_VERSION = 3
Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]
# eval/questions*.jsonl categories that name a topic (the others: hostile, mli, portaria... are no topic)
CATEGORY_TOPICS = {"employment_183": "employment", "tiebreaker": "residence", "pe_threshold": "permanent_establishment",
                   "relief": "double_taxation_relief", "artists_sportsmen": "artistes_sportsmen",
                   "public_service": "government_service", "out_of_scope_topic": OUT_OF_SCOPE}

@dataclass(frozen=True)
class Example:
    text: str            # the whole ticket (or question)
    question: str        # the asking words
    topic: str           # one of LABELS
    group: str           # the source page (cross-validation never splits one)


@dataclass(frozen=True)
class TopicScores:
    """A part's topics, most probable first, with calibrated probabilities."""
    ranked: tuple[tuple[str, float], ...]

    @property
    def topic(self) -> str:
        return self.ranked[0][0]

    @property
    def confidence(self) -> float:
        return self.ranked[0][1]

    def read_as(self, topic: str) -> "TopicScores":
        """The same reading with `topic` in the first topic's place (and probability), the others after it."""
        return TopicScores(((topic, self.confidence), *((t, p) for t, p in self.ranked[1:] if t != topic)))


# --------------------------------------------------------------------------- training data

def context_of(text: str, question: str, questions: Sequence[str]) -> str:
    """The ticket as the context of one of its questions: without its other questions, which would pull a
    short follow-up ("E a CIDE?") towards the first question's topic."""
    for other in questions:
        if other != question:
            text = text.replace(other, " ")
    return text


def bank_examples(tickets: Iterable) -> list[Example]:
    """One example per part of each ticket, its context the ticket without its other questions; a part out of
    scope only because its treaty is not in the corpus asks about a treaty topic the label does not name, so
    it teaches nothing about topics."""
    return [Example(context_of(t.text, p.question, [q.question for q in t.parts]), p.question, p.topic, t.page)
            for t in tickets for p in t.parts if p.out_of_scope != "other_treaty"]


def eval_examples(items: Iterable) -> list[Example]:
    out = []
    for item in items:
        topic = CATEGORY_TOPICS.get(item.category, item.category)
        if topic in LABELS and not (item.abstain and topic != OUT_OF_SCOPE):
            out.append(Example(item.question, asking(item.question)[-1].text, topic, item.source_url or item.id))
    return out


def exemplar_examples() -> list[Example]:
    return [Example(text, text, topic, f"exemplar:{topic}:{i}") for i, (topic, text) in enumerate(bank())]


def training_examples() -> list[Example]:
    """The ticket bank's train split, the eval items with a topic, and the example bank."""
    from eval.gold import load_eval_set
    from eval.tickets import load

    return bank_examples(load("train")) + eval_examples(load_eval_set()) + exemplar_examples()


def data_hash(examples: Sequence[Example]) -> str:
    payload = json.dumps([[e.text, e.question, e.topic] for e in examples], ensure_ascii=False)
    return hashlib.sha256(f"{FEATURES_VERSION}\0{payload}".encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- features

@lru_cache(maxsize=1)
def _label_index() -> dict[str, int]:
    from typing import get_args

    from eval.tickets import OutOfScope  # the bank's out-of-scope families (the lexicon's codes among them)

    names = list(TOPICS) + [f"oos:{c}" for c in get_args(OutOfScope)]
    return {n: i for i, n in enumerate(names)}


@lru_cache(maxsize=8192)
def lexicon_features(text: str, question: str) -> np.ndarray:
    """Topic and out-of-scope hits in the asking words and in the rest of the ticket; places by role."""
    index = _label_index()
    width = len(index)
    vec = np.zeros(2 * width + len(ROLES) + 3, dtype=np.float32)
    tokens = tokenize(text)
    where = text.find(question)
    lo, hi = (where, where + len(question)) if where >= 0 else (len(text), len(text))
    lang = detect_language(text, tokens)
    hits = [(m, m.value) for m in topic_matches(tokens, lang)] + \
        [(m, f"oos:{m.value}") for m in topics().out_of_scope.find(tokens)]
    for m, name in hits:
        k = index.get(name)
        if k is None:
            continue
        inside = lo <= tokens[m.start].start < hi
        vec[k + (0 if inside else width)] = 1.0
    mentions = find_mentions(text, tokens, lang)
    assign_roles(mentions, Grammar(tokens), False)
    base = 2 * width
    for m in mentions:
        if (m.role or "") in ROLES:
            vec[base + ROLES.index(m.role or "")] = 1.0
    vec[base + len(ROLES) + min(len({m.code for m in mentions}), 2)] = 1.0
    return vec


class FeatureMaker:
    """Feature rows from (ticket, asking words): word and character n-grams of the asking words, words of the
    whole ticket (its context), the lexicon block and, when `embedded`, the asking words' query vector. The
    vocabularies are learnt when the model is fitted."""

    def __init__(self, embedded: bool = False) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.asked_chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 4), min_df=3, sublinear_tf=True,
                                           max_features=20000, preprocessor=fold)
        self.asked_words = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, preprocessor=fold)
        self.context = TfidfVectorizer(ngram_range=(1, 1), min_df=2, sublinear_tf=True, preprocessor=fold)
        self.embedded = embedded

    def fit(self, pairs: Sequence[tuple[str, str]]) -> "FeatureMaker":
        self.asked_chars.fit([q for _, q in pairs])
        self.asked_words.fit([q for _, q in pairs])
        self.context.fit([t for t, _ in pairs])
        return self

    def rows(self, pairs: Sequence[tuple[str, str]], embed: Embed | None = None):
        from scipy.sparse import csr_matrix, hstack

        questions, texts = [q for _, q in pairs], [t for t, _ in pairs]
        lexicon = np.stack([lexicon_features(t, q) for t, q in pairs])
        blocks = [self.asked_chars.transform(questions), self.asked_words.transform(questions),
                  CONTEXT_WEIGHT * self.context.transform(texts), csr_matrix(lexicon)]
        if self.embedded:
            if embed is None:
                raise ValueError("este leitor foi treinado com os vetores das perguntas: falta o modelo de embeddings")
            blocks.append(csr_matrix(EMBEDDING_WEIGHT * np.asarray(embed(questions), dtype=np.float32)))
        return hstack(blocks).tocsr()


# --------------------------------------------------------------------------- the model

class TopicModel:
    def __init__(self, classifier, features: FeatureMaker, embed: Embed | None = None):
        self.classifier = classifier
        self.features = features
        self.embed = embed

    @classmethod
    def fit(cls, examples: Sequence[Example], vectors: QueryVectors | None = None) -> "TopicModel":
        from sklearn.calibration import CalibratedClassifierCV
        from sklearn.svm import LinearSVC

        counts: dict[str, int] = {}
        for e in examples:
            counts[e.topic] = counts.get(e.topic, 0) + 1
        kept = [e for e in examples if counts[e.topic] >= 3]     # calibration folds need 3 of each
        pairs = [(e.text, e.question) for e in kept]
        features = FeatureMaker(embedded=vectors is not None).fit(pairs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = CalibratedClassifierCV(LinearSVC(C=C), method="temperature", cv=3)
            model.fit(features.rows(pairs, vectors.embed if vectors else None), [e.topic for e in kept])
        return cls(model, features, vectors.embed_live if vectors else None)

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[TopicScores]:
        probs = self.classifier.predict_proba(self.features.rows(pairs, self.embed))
        labels = [str(c) for c in self.classifier.classes_]
        return [TopicScores(tuple((labels[i], float(p[i])) for i in np.argsort(-p))) for p in probs]

    def score(self, text: str, question: str) -> TopicScores:
        return self.scores([(text, question)])[0]


def cached_model(examples: Sequence[Example], cache_dir: Path, vectors: QueryVectors | None = None) -> TopicModel:
    """The model for these examples (with the query vectors of `vectors`' model, if any), fitted once and kept
    under cache_dir (keyed by the data's hash, the embedding model's fingerprint and the library's version;
    never committed)."""
    import sklearn

    ref = vectors.ref if vectors else ""
    key = hashlib.sha256(f"{data_hash(examples)}\0svm{C}\0{ref}\0{sklearn.__version__}\0{reading_code_digest()}"
                         .encode()).hexdigest()[:20]
    return load_or_fit(cache_dir / "topic_model" / f"{key}.joblib", lambda: TopicModel.fit(examples, vectors),
                       lambda m: (m.classifier, m.features),
                       lambda c, f: TopicModel(c, f, vectors.embed_live if vectors else None))


_MODELS: dict[tuple[Path, str], TopicModel] = {}


def trained_model(cache_dir: Path, vectors: QueryVectors | None = None) -> TopicModel:
    """The reader trained on the current training data (with `vectors`' model, if any), once per process."""
    key = (cache_dir, vectors.ref if vectors else "")
    if key not in _MODELS:
        _MODELS[key] = cached_model(training_examples(), cache_dir, vectors)
    model = _MODELS[key]
    return TopicModel(model.classifier, model.features, vectors.embed_live) if vectors else model
