"""The vocabulary query understanding reads: countries, topics and cue words, from the YAML files here.

Loaded once and indexed for longest-phrase lookup; the data files are the place to add a country
or a phrasing, never the code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from assistant.lexicon.text import PhraseIndex, Token, fold, phrase_key

_DIR = Path(__file__).parent


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.load((_DIR / name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return data


def inflect(adjective: str) -> list[str]:
    """Feminine and plural forms of a pt/es/en adjective or demonym (a superset is harmless)."""
    a = fold(adjective)
    forms = [a]
    if a.endswith("ao"):                                   # alemão: irregular, listed in `forms`
        return forms
    if a.endswith("es"):                                   # português, japonés
        forms += [a + "a", a + "as", a + "es"]
    elif a.endswith("o"):                                  # brasileiro, nipónico
        forms += [a[:-1] + "a", a + "s", a[:-1] + "as"]
    elif a.endswith("ol"):                                 # espanhol, español
        forms += [a + "a", a + "as", a + "es", a[:-1] + "is"]
    elif a.endswith(("an", "on", "in")):                   # alemán, letón, American
        forms += [a + "s", a + "a", a + "as", a + "es"]
    elif a.endswith(("e", "a")):                           # canadense, belga, Portuguese
        forms += [a + "s"]
    elif a.endswith("i"):                                  # marroquí, israelí
        forms += [a + "es", a + "s"]
    return forms


PLACE_CATEGORIES = ("places", "institutions", "taxes", "company_forms", "listed_companies", "ids", "currencies")
LANGUAGES = ("pt", "es", "en")
REQUEST_FILLERS = 3      # small words between a request's courtesy and its verb ("Agradecíamos também que nos…")


@dataclass(frozen=True)
class Countries:
    by_language: dict[str, PhraseIndex[str]]        # country words, plus the ones only read in that language
    excluded: PhraseIndex[bool]
    exact_case: tuple[tuple[re.Pattern[str], str], ...]
    codes: frozenset[str]
    language_countries: dict[str, tuple[str, ...]]   # likeliest countries for a question's language
    demonyms: frozenset[str]                         # folded adjective forms ("brasileira", "japoneses")
    names: frozenset[str]                            # folded one-word country names ("portugal", "japao")
    not_places: frozenset[str]     # folded institutions, taxes, forms, IDs, currencies ("CLT", "reais"): no place
    lowercase_places: dict[str, str]                 # folded exact-case city names, read lower case in English

    def index(self, language: str) -> PhraseIndex[str]:
        return self.by_language.get(language, self.by_language["pt"])


def _exact(form: str) -> re.Pattern[str]:
    tail = r"(?![\w$])" if form[-1].isalnum() else ""      # "US$" is a currency, not the country
    return re.compile(rf"(?<![\w.]){re.escape(form)}{tail}")


@lru_cache(maxsize=1)
def countries() -> Countries:
    data = _load("countries.yaml")
    places = _load("places.yaml")
    entries: list[tuple[str, str]] = []
    exact: list[tuple[re.Pattern[str], str]] = []
    only_in: dict[str, list[tuple[str, str]]] = {lang: [] for lang in LANGUAGES}
    lowercase: dict[str, str] = {}
    for code, spec in data["countries"].items():
        spec = spec or {}
        entries += [(name, code) for name in spec.get("names", [])]
        entries += [(form, code) for adj in spec.get("adj", []) for form in inflect(adj)]
        entries += [(form, code) for form in spec.get("forms", [])]
        exact += [(_exact(form), code) for form in spec.get("exact_case", [])]
    for code, spec in places.items():
        entries += [(name, code) for cat in PLACE_CATEGORIES for name in spec.get(cat) or []]
        exact += [(_exact(form), code) for form in spec.get("exact_case") or []]
        lowercase.update((fold(form), code) for form in spec.get("exact_case") or []
                         if " " not in form and form[1:].islower())
        for lang, names in (spec.get("only_in") or {}).items():
            only_in[lang] += [(name, code) for name in names]
    by_language = {lang: PhraseIndex(only_in[lang] + entries) for lang in LANGUAGES}
    demonyms = frozenset(fold(form) for spec in data["countries"].values() for adj in (spec or {}).get("adj", [])
                         for form in inflect(adj))
    names = frozenset(fold(name) for spec in data["countries"].values() for name in (spec or {}).get("names", [])
                      if " " not in name)
    # what names a country without being a place in it: "aqui" never points to one ("(CLT) … 200 dias aqui")
    not_places = frozenset(fold(name) for spec in places.values()
                           for names in (*(spec.get(cat) or [] for cat in PLACE_CATEGORIES if cat != "places"),
                                         *(spec.get("only_in") or {}).values())
                           for name in names)
    return Countries(by_language, PhraseIndex(((p, True) for p in data.get("exclude", [])), fuzzy=False),
                     tuple(exact), frozenset(data["countries"]),
                     {lang: tuple(codes) for lang, codes in data["language_countries"].items()}, demonyms, names,
                     not_places, lowercase)


@dataclass(frozen=True)
class Topics:
    index: PhraseIndex[str]
    out_of_scope: PhraseIndex[str]
    priority: tuple[str, ...]
    not_in_language: dict[str, frozenset[str]]    # folded words that are no topic in that language
    other_taxes: frozenset[str]                   # out-of-scope codes that are taxes the treaties do not cover
    income_tax: PhraseIndex[bool]                 # words naming a covered tax or who levies it ("IRS", "who taxes")
    first: PhraseIndex[str]                       # phrases naming one article's subject: their topic ranks first


@dataclass(frozen=True)
class AskingWords:
    lead_ins: PhraseIndex[bool]
    interrogatives: PhraseIndex[bool]
    request_phrases: PhraseIndex[bool]      # phrases that ask wherever they are ("gostaria de saber", "let me know")
    small_talk: PhraseIndex[bool]
    list_intros: PhraseIndex[bool]
    pointers: PhraseIndex[bool]
    unmarked: PhraseIndex[bool]             # what asks in a ticket typed without a question mark
    tags: PhraseIndex[bool]                 # a statement's closing tag that asks ("…, né", "…, is that right")
    comma_tags: PhraseIndex[bool]           # a tag only after a comma ("…, right", "…, certo")
    changes: PhraseIndex[bool]              # whether the answer before would change ("a resposta seria diferente?")
    request_openers: PhraseIndex[bool]      # a courtesy asking someone to do something ("me podrían", "could you")
    request_fillers: frozenset[str]         # small words between it and the verb ("também", "nos", "please")
    request_verbs: PhraseIndex[bool]        # verbs of telling ("indicar", "confirmassem", "let us know")
    next_question: PhraseIndex[bool]        # another question after the first ("outra coisa", "one more thing")

    def requests(self, tokens: list[Token]) -> bool:
        """The sentence holds a request: a request phrase, or a courtesy, up to REQUEST_FILLERS small words and a
        verb of telling ("Agradecíamos também que nos indicassem a taxa…")."""
        if self.request_phrases.find(tokens) or self.next_question.find(tokens):
            return True
        words = [t for t in tokens if t.is_word]
        for opener in self.request_openers.find(words):
            k = opener.end
            while k < len(words) and k - opener.end < REQUEST_FILLERS and words[k].norm in self.request_fillers:
                k += 1
            verb = self.request_verbs.find(words[k:k + 3])
            if verb and verb[0].start == 0:
                return True
        return False

    def is_small_talk(self, tokens: list[Token]) -> bool:
        """A question mark that asks nothing: the sentence's words are small talk, but for a name or two (a chat's
        time stamp, "[14:02] oi, td bem?", is no word)."""
        words = [t for t in tokens if t.is_word and not t.norm.isdigit()]
        found = self.small_talk.find(words)
        return bool(found) and len(words) - sum(m.end - m.start for m in found) <= 2


@lru_cache(maxsize=1)
def asking_words() -> AskingWords:
    """What makes a ticket's sentence ask (asking.yaml): for the parts and for the retrieval query."""
    raw = _load("asking.yaml")

    frames = raw["request_frames"]

    def index(key: str, lists: dict[str, Any] = raw) -> PhraseIndex[bool]:
        return PhraseIndex(((str(p), True) for p in lists[key]), fuzzy=False)
    return AskingWords(index("lead_ins"), index("interrogatives"), index("requests"), index("small_talk"),
                       index("list_intros"), index("pointers"), index("unmarked"), index("tags"),
                       index("comma_tags"), index("changes"), index("openers", frames),
                       frozenset(w for p in frames["fillers"] for w in phrase_key(str(p))), index("verbs", frames),
                       index("next_question"))


@lru_cache(maxsize=1)
def topics() -> Topics:
    data = _load("topics.yaml")
    first = [(phrase, topic) for topic, phrases in data["first"].items() for phrase in phrases]
    entries = [(phrase, topic) for topic, phrases in data["topics"].items() for phrase in phrases] + first
    oos = [(phrase, code) for code, phrases in data["out_of_scope"].items() for phrase in phrases]
    not_in = {lang: frozenset(fold(w) for w in words) for lang, words in (data.get("not_in_language") or {}).items()}
    return Topics(PhraseIndex(entries), PhraseIndex(oos, fuzzy=False), tuple(data["priority"]), not_in,
                  frozenset(data["other_taxes"]), PhraseIndex(((p, True) for p in data["income_tax"]), fuzzy=False),
                  PhraseIndex(first))


@dataclass(frozen=True)
class Cues:
    grammar: PhraseIndex[str]                 # "role:residence", "income", "from_preps", "company", ...
    facts: PhraseIndex[frozenset[str]]        # fact cue lists, "rate" and "kind:<royalty kind>" by phrase
    negation: frozenset[str]
    treaty_question: PhraseIndex[bool]        # words asking what a treaty decides (withholding, who taxes)
    tiebreaker: PhraseIndex[str]              # art. 4 facts by clause: "home", "family", "both", ...
    deixis: frozenset[str]                    # "aqui", "lá", "here": the place last named (as typed, lower case)
    deixis_not_beside: frozenset[str]         # "there is", "is there": no place
    deixis_here: frozenset[str]               # "aqui", "here": the deixis that point to where the writer is
    treaty_words: frozenset[str]              # "tratado", "treaty": a question naming a treaty (folded)
    disjunctions: dict[str, frozenset[str]]   # "or" by language: a negation before it spans the alternatives
    provisions: PhraseIndex[str]              # a provision named by name ("PPT") -> its key ("MLI:7(1)")


_GRAMMAR_LISTS = ("income", "from_preps", "to_preps", "visit", "account", "company", "payer", "possessive", "pay_verbs",
                  "receive_verbs", "supply_verbs", "conjunctions", "family", "lend_verbs", "contribute_verbs",
                  "outside")


@lru_cache(maxsize=1)
def cues() -> Cues:
    data = _load("cues.yaml")
    entries = [(p, f"role:{role}") for role, phrases in data["roles"].items() for p in phrases]
    for name in _GRAMMAR_LISTS:
        entries += [(p, name) for p in data[name]]
    lists = dict(data["facts"], rate=data["rate"])
    negation = frozenset(fold(w) for w in lists.pop("negation"))
    lists.update({f"kind:{kind}": phrases for kind, phrases in data["royalty_kinds"].items()})
    for field, kinds in data["sub_cases"].items():      # "pension_kind:social_security", ...
        lists.update({f"{field}:{kind}": phrases for kind, phrases in kinds.items()})
    names: dict[tuple[str, ...], set[str]] = {}
    spelling: dict[tuple[str, ...], str] = {}
    for name, phrases in lists.items():
        for phrase in phrases:
            key = phrase_key(phrase)
            names.setdefault(key, set()).add(name)
            spelling.setdefault(key, phrase)
    facts = PhraseIndex(((spelling[k], frozenset(v)) for k, v in names.items()), fuzzy=False)
    treaty_question = PhraseIndex(((p, True) for p in data["treaty_question"]), fuzzy=False)
    tiebreaker = PhraseIndex(((p, name) for name, phrases in data["tiebreaker"].items() for p in phrases),
                             fuzzy=False)
    return Cues(PhraseIndex(entries), facts, negation, treaty_question, tiebreaker,
                frozenset(w.lower() for w in data["deixis"]), frozenset(fold(w) for w in data["deixis_not_beside"]),
                frozenset(w.lower() for w in data["deixis_here"]), frozenset(fold(w) for w in data["treaty_words"]),
                {lang: frozenset(fold(w) for w in words) for lang, words in data["disjunctions"].items()},
                PhraseIndex((p, key) for key, phrases in data["provisions"].items() for p in phrases))
