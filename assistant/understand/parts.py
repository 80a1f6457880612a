"""A ticket's parts: one per question it asks, each with its topic, confidence and evidence span.

Every asking sentence is scored by the trained topic model with the whole ticket as context; a sentence on
a part's topic read unsurely restates it and joins it (the first one's words are its evidence). When the two most
probable topics of a part are close, the runner-up is kept so the card can answer both.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import rules
from assistant.lexicon import asking_words, cues, topics
from assistant.lexicon.text import Token, fold, tokenize
from assistant.understand.facts import Hits
from assistant.understand.language import detect_language
from assistant.understand.places import find_mentions
from assistant.understand.rights_facts import works_at_mission
from assistant.understand.safety import mentions_mli
from assistant.understand.sentences import Span, asking, opens_question, sentences
from assistant.understand.topic_model import OUT_OF_SCOPE, TopicModel, TopicScores, context_of
from assistant.understand.topics import topic_matches

# Runner-up within this much of the best topic's probability: the reading is uncertain, both are answered.
CLOSE = 0.15
# A sentence whose best topic is this unlikely joins the part before it ("E a que taxa?"); grouped CV on the
# train split (1,238 tickets): 0.2 reads 0.5 points more parts right than 0.35, 0.5 reads 1.2 fewer.
FOLLOW_UP = 0.2
# "what's the cap, and which form does the bank need?": a sentence splits at a comma and a conjunction when
# both halves are read, each this surely, as different topics (grouped CV on the train split, 1,126 tickets:
# topic accuracy per part 63.3% without splitting, 63.7% with).
# Also without the comma when the conjunction opens a second question ("qual a taxa e como evito…?", "…pagam
# quanto em Portugal e depois aqui no Brasil pago de novo?", "solicitamos confirmen si… y si la actividad…").
CLAUSE = re.compile(r",\s+(?:and|or|e|ou|y|o)\s+|\s+(?:and|e|y)\s+(?=(?:how|what|which|where|who|when|can|do|does|is|"
                    r"como|qual|quais|quanto|onde|quem|quando|o que|posso|cómo|cuál|cuáles|cuánto|dónde|qué|quién|"
                    r"cuándo|puedo|depois|then|luego|después|whether|si|se|if|aqui|aquí|"
                    # a second yes/no question on what is exempt ("…sobre los dividendos y quedan exentos en España?")
                    r"queda|quedan|quedo|fica|ficam|fico)(?!\w))|"
                    # "a pensao do inss vai ser tributada em portugal e a da prefeitura quem cobra o imposto": a few
                    # words that name what the second question asks about, then its interrogative
                    r"\s+(?:and|e|y)\s+(?=(?:[^\W\d]+\s+){1,4}(?:quem|qual|quais|quanto|onde|quién|quien|cuál|cual|"
                    r"cuánto|cuanto|dónde|donde|who|which|where)(?!\w))", re.IGNORECASE)
# And at a comma before an interrogative after a clause that itself asks, in a list of questions in one sentence
# ("…: qual a taxa máxima, desde quando se aplica a convenção, e há imposto do selo?"); not after a clause that
# only sets the scene ("If the MAP fails, when can…", "As a US citizen living in Lisbon, who taxes…").
_INTERROGATIVE = (r"(?:how|what(?!\s+if\b)|which|where|who|when|since when|como|cómo|qual|quais|quanto|quanta|onde|"
                  r"quem|quando|desde quando|a partir de quando|cuál|cual|cuáles|cuánto|cuánta|dónde|quién|cuándo|"
                  r"desde cuándo|a partir de cuándo|"
                  # typed on a phone: "desde qdo", "qto retém", "qnd"
                  r"qdo|qnd|qto|qnto|desde qdo|desde qnd|a partir de qdo)(?!\w)")
# A modal that opens a second yes/no question in the list ("quanto retém o Japão, posso abater no IRS e ainda
# tenho de ter lá um representante?"), after an optional "still/also".
_MODAL = (r"(?:(?:ainda|também|tambem|also|además|ademas|still)\s+)?(?:posso|podemos|devo|devemos|tenho de|tenho que|"
          r"temos de|temos que|tenho q|temos q|tengo q|tenemos q|preciso|precisamos|puedo|debo|debemos|tengo que|"
          r"tenemos que|necesito|"
          r"can i|can we|do i|do we|should i|should we|must i|must we|will i|will we)(?!\w)")
LISTED = re.compile(rf",\s+(?={_INTERROGATIVE}|{_MODAL})", re.IGNORECASE)
# "…e ainda tenho de manter lá um representante fiscal?": the same modal after "and" once the sentence has asked
LISTED_AND = re.compile(rf"\s+(?:and|e|y)\s+(?={_MODAL})", re.IGNORECASE)
_ASKS = re.compile(rf"(?<!\w)(?:{_INTERROGATIVE}|{_MODAL})", re.IGNORECASE)
# A clause after the cut that opens a yes/no question of its own ("Will Brazil tax that grant, and will I still owe
# IRS in Portugal on it?", "…is the limit counted per calendar year, and does Portugal get to tax my salary?",
# "como peço o certificado…, e ainda é preciso mandar o formulário à AT?"): a second question, even on the same
# topic; not a clause that goes on stating ("…, and I was paid in Japan?"), nor the other answer to the same question
# ("Is this pension taxable only in Portugal, or can Japan keep taxing it?").
_ASKS_AGAIN = re.compile(rf"^\W*(?:(?:still|also|then|ainda|também|tambem|todavía|todavia|también|tambien)\s+)?"
                         rf"(?:(?i:{_MODAL})|(?i:will|does|do|did|can|could|should|would|may|must|is|are)\s+"
                         r"(?:(?i:i|we|you|he|she|they|it|there|the|my|our|his|her|their|this|that|these|those)\b|"
                         r"[A-ZÀ-Ý])|(?i:(?:é|e|será|sera) (?:preciso|necessário|necessario|obrigatório|obrigatorio)|"
                         r"(?:hace falta|es necesario|será necesario|sera necesario|hay que|tengo que|tenemos que)))")
_OR = re.compile(r"(?<!\w)(?:or|ou|o)(?!\w)", re.IGNORECASE)     # "…only in Portugal, or can Japan…": the alternative
_GREETED = re.compile(r"^\W*(?:[^\W\d_]+\s+){0,2}[^\W\d_]+\s*,\s*")       # "Boa tarde, como peço…", "Hi Rui, can I…"


def _asks(clause: str) -> bool:
    """The clause opens as a question (after a greeting), so a story told before it is no part of it: a clause
    cut off after it is read apart without losing the facts ("Will Brazil tax that grant, and will I…")."""
    return any(opens_question(c) or bool(_ASKS_AGAIN.match(c)) for c in (clause, _GREETED.sub("", clause, 1)))


# The second of questions counted off in one sentence ("…nos indicaran, en primer lugar, si …, y, en segundo lugar,
# si la beca…", "…and, secondly, whether…"): a part of its own, on its topic or the same one
ORDINAL = re.compile(r",?\s*(?:(?:and|e|y)\s*,?\s*)?(?:en|em|in)\s+(?:segundo|tercer|terceiro|third|second|"
                     r"[úu]ltimo)\s+(?:lugar|place)\s*,?\s+|,\s*(?:(?:and|e|y)\s*,?\s*)?(?:secondly|thirdly|"
                     r"finally|lastly|por [úu]ltimo|por fim|por fin|finalmente),\s+", re.IGNORECASE)

SPLIT_CONFIDENCE = 0.5
# A second question on a part's topic ("Can Portugal tax his pension? And hers?" is two questions) is its own
# part when read this surely; below, it restates the part ("Qual a taxa? E quanto retêm?"). Grouped CV on the
# train split (1,398 tickets, 5 folds by page): topic per part 67.2% -> 69.5%, tickets with every part read
# 36.4% -> 44.6% (0.7: 68.9% / 42.4%; never kept: the first figures); parts read beyond the gold 42 -> 84.
# Re-measured for the calibrated SVM reader (562 tickets, 1 in 4, page-grouped): 0.3 reads 5 more parts right
# than 0.5 and none fewer (one more part beyond the gold); 0.2 one more still, and below 0.2 nothing changes.
SAME_TOPIC_KEPT = 0.3


@dataclass(frozen=True)
class PartTopic:
    question: Span                          # the asking words (evidence)
    topic: str                              # a rules topic or "out_of_scope"
    confidence: float
    runner_up: tuple[str, float] | None = None   # a close second reading, answered too
    other_treaty: bool = False              # it asks about a treaty the corpus does not hold (out of scope)
    outside: tuple[str, ...] = ()           # the countries it names that no treaty joins ("¿Y los de EE.UU.?")

    @property
    def out_of_scope(self) -> bool:
        return self.topic == OUT_OF_SCOPE


def _runner_up(scores: TopicScores) -> tuple[str, float] | None:
    if len(scores.ranked) < 2:
        return None
    (_, best), (second, p) = scores.ranked[0], scores.ranked[1]
    return (second, p) if best - p <= CLOSE else None


# "…, or are they taxable only in Japan?", "…, ou só em Portugal?": the other answer to the same question, no second one
_ONLY_ALTERNATIVE = re.compile(r"(?:\w+\W+){0,6}?(?:only|solely|exclusively|s[óo]|somente|apenas|unicamente|"
                               r"exclusivamente|s[óo]lo|solamente)(?!\w)", re.IGNORECASE)


_WORDED = re.compile(r"[^\W\d_]{2}")       # a clause has words, not only an item's mark ("2) E se…")


def _clauses(sentence: Span, language: str) -> list[Span]:
    """The sentence cut at its conjunctions (Spanish "o" is "or"; in Portuguese, "…cenário, o Brasil…", it is the
    article), but not before the alternative that only one State taxes."""
    out, start = [], 0
    text = sentence.text
    cuts = sorted([*CLAUSE.finditer(text), *LISTED.finditer(text), *LISTED_AND.finditer(text),
                   *ORDINAL.finditer(text)], key=lambda m: m.start())
    for m in cuts:
        conjunction = m.group().strip(" ,").lower()
        if m.start() < start or not _WORDED.search(text, start, m.start()) or \
                (m.re not in (CLAUSE, ORDINAL) and not _ASKS.search(text, start, m.start())) or \
                (language != "es" and conjunction == "o") or \
                (conjunction in ("or", "ou", "o") and _ONLY_ALTERNATIVE.match(text, m.end())):
            continue
        out.append(Span(sentence.start + start, sentence.start + m.start(), text[start:m.start()]))
        start = m.end()
    out.append(Span(sentence.start + start, sentence.end, sentence.text[start:]))
    return out


def _split(text: str, spans: list[Span], model: TopicModel, language: str) -> list[tuple[Span, TopicScores]]:
    """Each asking sentence with its scores (its context: the ticket without the other asking sentences), or
    its clauses when they ask about different topics."""
    out = []
    contexts = [context_of(text, s.text, [o.text for o in spans]) for s in spans]
    for span, context, scores in zip(spans, contexts, model.scores([(c, s.text) for c, s in zip(contexts, spans)])):
        clauses = _clauses(span, language)
        if len(clauses) > 1:
            scored = model.scores([(context, c.text) for c in clauses])
            # "…¿Hacienda puede gravar los beneficios de esa sucursal, y si en vez de eso solo alquilamos un
            # almacén…, eso ya cuenta como establecimiento permanente?": a supposition after the cut asks again, on
            # the same topic under other facts
            supposed = all(supposes(c.text) for c in clauses[1:])
            counted_off = bool(ORDINAL.search(span.text))      # "…, y, en segundo lugar, si…": asked apart
            asked_again = _asks(clauses[0].text) and \
                all(_ASKS_AGAIN.match(c.text) and not _OR.search(span.text, b.end - span.start, c.start - span.start)
                    for b, c in zip(clauses, clauses[1:]))
            if (len({s.topic for s in scored}) > 1 or supposed or counted_off or asked_again) and \
                    min(s.confidence for s in scored) >= SPLIT_CONFIDENCE:
                out += list(zip(clauses, scored))
                continue
        out.append((span, scores))
    return out


def _side_word(span: Span) -> str | None:
    """The out-of-scope word of a sentence itself ("IVA", "herança", "modelo 210"), if any."""
    hits = topics().out_of_scope.find(tokenize(span.text))
    return hits[0].value if hits else None


def _same_part(part: PartTopic, span: Span, topic: str) -> bool:
    """A sentence on the part's topic adds to it; two side questions are one part only when they name the
    same side matter (VAT twice); else each is its own part with its own note ("Preciso de CPF?")."""
    if part.topic != topic:
        return False
    word = _side_word(span)
    return topic != OUT_OF_SCOPE or (word is not None and _side_word(part.question) == word)


# Pay has special articles beside art. 15 (PT-BR 15(1): "Com ressalva do disposto nos artigos 16.º, 18.º e
# 19.º"; artistes, teachers and students: arts. 17, 20, 21): a salary question whose own words name one of them
# ("my salary as a visiting professor") is that article's. Grouped parts CV on the train split (1,479 tickets):
# neutral (employment 156 -> 155 of 177 parts right, the special topics unchanged).
SPECIAL_PAY = ("directors_fees", "artistes_sportsmen", "government_service", "professors", "students")


def _special_pay(named: set[str], scores: TopicScores) -> TopicScores:
    """The special article named in a salary question (`named`: the topics its words name) takes the salary
    reading's place (and probability)."""
    if scores.topic != "employment":
        return scores
    specials = named & set(SPECIAL_PAY)
    if len(specials) != 1:
        return scores
    special = specials.pop()
    return scores.read_as(special)


def _study_pay(scores: TopicScores, hits: Hits) -> TopicScores:
    """Pay read as a salary in a ticket that says the job helps pay the studies ("trabajo en una tienda para
    ayudarme a pagar los estudios") is a student's (BR-ES 21(2): "remuneração … por emprego exercido nesse
    Estado, com a finalidade de ajudar os seus estudos")."""
    if scores.topic != "employment" or not hits("study_help"):
        return scores
    return scores.read_as("students")


def _public_pay(scores: TopicScores, hits: Hits, tokens: list[Token]) -> TopicScores:
    """Pay read as a salary in a ticket whose employer is a State's (a ministry's school, a consulate, a city
    hall, the armed forces: "pension_kind:government" and "diplomatic_post" cues) is pay for government
    service (art. 19), which art. 15 yields to; beside a private employer ("a minha mulher, numa escola privada")
    the salary may be that one's; a consulate where only a visa or a paper is seen to is no employer."""
    public = hits("pension_kind:government") or works_at_mission(hits, tokens)
    if scores.topic != "employment" or not public or hits("private_employer"):
        return scores
    return scores.read_as("government_service")


def _self_employed(scores: TopicScores, hits: Hits) -> TopicScores:
    """Work read as a salary in a ticket that says the person works for themselves ("trabalhadora independente",
    "recibos verdes", "an independent consultant … his invoices") and names no employment contract or salary:
    the fees are independent services (art. 14, or art. 7 where the treaty has none)."""
    if scores.topic != "employment" or not hits("self_employed") or hits("employee_contract"):
        return scores
    return scores.read_as("independent_services")


# Topics whose questions also ask "from when" ("a partir de quando?" of a deadline or of a residence).
_DATED_TOPICS = ("entry_into_force", "mutual_agreement", "residence", "arbitration")


def _in_force(named: set[str], scores: TopicScores) -> TopicScores:
    """A question whose own words ask when the treaty applies ("a convenção já valia para esse pagamento de
    2001?", "¿a partir de qué fecha se aplicaron sus disposiciones?"; `named`: the topics its words name) asks
    its entry into force, whatever income it names."""
    if scores.topic in _DATED_TOPICS or "entry_into_force" not in named:
        return scores
    return scores.read_as("entry_into_force")


# The treaty's procedures: a question whose own words name one of them and no other topic asks it.
MECHANISMS = ("mutual_agreement", "arbitration")


def _mechanism(named: set[str], scores: TopicScores) -> TopicScores:
    """A question whose own words name only a procedure of the treaty ("posso pedir que a Receita resolva com o
    fisco português?", "¿puedo llevarlo a un arbitraje?") asks that procedure, whatever income the story is
    about; a reading as another procedure, or as a domestic matter ("reclamação graciosa"), stands."""
    if len(named) != 1 or not named <= set(MECHANISMS) or scores.topic in (*MECHANISMS, "entry_into_force",
                                                                           OUT_OF_SCOPE):
        return scores
    return scores.read_as(next(iter(named)))


def _named_subject(span: Span, scores: TopicScores) -> TopicScores:
    """A question whose own words name one article's subject exactly ("Fracionamento de contratos no MLI: qual o
    número mínimo de dias…?") asks that article's topic, whatever else the instrument's name leans to."""
    found = topics().first.find(tokenize(span.text))
    return scores.read_as(found[0].value) if found else scores


_ENTERPRISE = ("permanent_establishment", "business_profits")


def _profit_not_pay(span: Span, scores: TopicScores, text: str, language: str) -> TopicScores:
    """A question about an enterprise's profit ("can Brazil tax the profit from the bridge?") is not one of
    employment, whatever the crews and months around it: the enterprise topic read next takes its place, else
    the PE's when the ticket names a site or a PE, else business profits."""
    if scores.topic != "employment":
        return scores
    hits = Hits(tokenize(span.text))
    if not hits("enterprise_profit") or hits("wage_words"):
        return scores
    enterprise = next((t for t, _ in scores.ranked[1:] if t in _ENTERPRISE), None)
    if enterprise is None:
        named = {m.value for m in topic_matches(tokenize(text), language)}
        enterprise = "permanent_establishment" if "permanent_establishment" in named else "business_profits"
    return scores.read_as(enterprise)


def _company_residence(scores: TopicScores, text: str, tokens: list[Token], language: str) -> TopicScores:
    """A ticket that says where a company's decisions are taken and asks about residence ("a AT considera-a
    residente cá, a Receita lá: como se resolve?") asks art. 4's last paragraph (place of effective
    management), not a domestic question; a company of a country no treaty joins stays out of scope."""
    if scores.topic != OUT_OF_SCOPE:
        return scores
    if not any(m.value == "management" for m in cues().tiebreaker.find(tokens)) or \
            not any(t.norm.startswith("resid") for t in tokens):
        return scores
    covered = {c for parties in rules.known_treaties().values() for c in parties}
    if any(m.code not in covered for m in find_mentions(text, tokens, language)):
        return scores
    return TopicScores((("residence", scores.confidence), *scores.ranked[1:]))


def _other_treaty(span: Span, language: str) -> tuple[str, ...] | None:
    """A question about a treaty the corpus does not hold: it names a country outside every treaty ("Is the UK
    State Pension taxable in Portugal?", "does France get to tax me?"), or two countries no treaty joins ("pelo
    tratado entre Brasil e Japão", "¿tributará en España o en Portugal?"; the MLI aside, which may still answer
    it), and no pair of States a treaty joins. The countries it names outside every treaty, or None when it is
    not such a question."""
    tokens = tokenize(span.text)
    named = {m.code for m in find_mentions(span.text, tokens, language)}
    treaties = rules.known_treaties().values()
    if any(set(parties) <= named for parties in treaties):
        return None
    outside = tuple(sorted(named - {c for parties in treaties for c in parties}))
    # a treaty word that is the MLI's own name ("el artículo 8 del Convenio Multilateral") names no other treaty
    treaty_word = any(t.norm in cues().treaty_words and not _mli_name(tokens, k) for k, t in enumerate(tokens))
    if outside or (len(named) >= 2 and (treaty_word or not mentions_mli(fold(span.text)))):
        return outside
    return None


def _mli_name(tokens: list[Token], k: int) -> bool:
    """The treaty word at `k` is part of the MLI's name ("Convenção Multilateral", "Multilateral Convention")."""
    return any(t.norm == "multilateral" for t in tokens[max(0, k - 1):k + 2])


def _named(span: Span, language: str) -> set[str]:
    """The topics a sentence's own words name, outside its side-matter phrases ("continuo a descontar para a
    Segurança Social?" names no pension)."""
    tokens = tokenize(span.text)
    side = {i for m in topics().out_of_scope.find(tokens) for i in range(m.start, m.end)}
    return {m.value for m in topic_matches(tokens, language) if not side & set(range(m.start, m.end))}


def _side_question(span: Span, named: set[str], scores: TopicScores) -> TopicScores:
    """A question whose own words name a side matter ("tem imposto sobre herança em Portugal?", "what about
    Brazilian IPTU?", "Form 1116?") and no treaty topic is that side question, whatever income the rest of the
    ticket is about (`named`: the topics its words name); so is one on a tax no treaty covers, whatever income it
    names ("E o IOF cobrado no câmbio do empréstimo, também fica limitado?"), unless its words also name a covered
    tax or who taxes, or the exchange of information (which may reach every tax)."""
    word = _side_word(span)
    if scores.topic == OUT_OF_SCOPE or word is None:
        return scores
    if named and (word not in topics().other_taxes or "mutual_agreement" in named or
                  topics().income_tax.find(tokenize(span.text))):
        return scores
    return scores.read_as(OUT_OF_SCOPE)


# The incomes whose cap a rate question asks ("Qual a retenção máxima?" names none of them).
CAPPED = ("dividends", "interest", "royalties", "technical_services")


def _cap_follow_up(named: set[str], scores: TopicScores, parts: list[PartTopic]) -> TopicScores:
    """A question that names no income, after a part on a capped income, asks about that income: "Isto conta
    como royalties? Qual a retenção máxima?" is not a second income (the model reads the cap words as
    dividends)."""
    before = parts[-1].topic if parts else None
    if named or before not in CAPPED or scores.topic not in CAPPED or scores.topic == before:
        return scores
    return scores.read_as(before)


# Words around a country in a follow-up that asks nothing new ("E o Brasil?", "¿Y en España?", "What about Japan?").
_FOLLOW_UP_WORDS = {"e", "y", "and", "o", "a", "os", "as", "el", "la", "los", "las", "the", "em", "no", "na", "en",
                    "in", "do", "da", "del", "of", "what", "about", "how", "entao", "then", "quanto", "ao", "al",
                    "lado", "parte", "side", "pois", "bem", "ja", "agora", "now"}


def _country_follow_up(span: Span, language: str, scores: TopicScores, parts: list[PartTopic]) -> TopicScores:
    """A question made of a country and linking words ("Portugal pode tributar o ganho? E o Brasil?") asks the
    part before it again, about that country: its topic is that part's, whatever the model makes of it."""
    if not parts or parts[-1].out_of_scope or scores.topic == parts[-1].topic:
        return scores
    tokens = tokenize(span.text)
    mentions = find_mentions(span.text, tokens, language)
    if not mentions:
        return scores
    inside = {i for m in mentions for i in range(m.start, m.end)}
    rest = [t.norm for i, t in enumerate(tokens) if t.is_word and i not in inside]
    if any(w not in _FOLLOW_UP_WORDS for w in rest):
        return scores
    return scores.read_as(parts[-1].topic)


# The kinds of an income (the cue lists' prefixes) and the topic whose rules read them.
_KIND_TOPICS = {"kind": "royalties", "pension_kind": "pensions", "gain_kind": "capital_gains"}
# Words around the kind in a follow-up that asks the part before again about another kind ("15%? E por uma
# marca? E por software?", "¿Y por el know-how?", "And for a trademark?").
_KIND_FOLLOW_UP_WORDS = _FOLLOW_UP_WORDS | {"por", "pela", "pelo", "para", "sobre", "for", "on", "um", "uma", "un",
                                            "una", "an", "de", "if", "se", "si", "with", "com", "con"}


def _kind_follow_up(span: Span, scores: TopicScores, parts: list[PartTopic]) -> TopicScores | None:
    """A follow-up made of a kind of the income the part before asks about and linking words ("Quanto retém o
    Brasil sobre royalties de patente? E por uma marca?") asks that part again for that kind: its topic is that
    part's, and it is a part of its own (its kind decides its cap). None when it is no such follow-up."""
    if not parts or parts[-1].out_of_scope:
        return None
    tokens = tokenize(span.text)
    kinds = [m for m in cues().facts.find(tokens)
             if any(_KIND_TOPICS.get(name.split(":")[0]) == parts[-1].topic for name in m.value if ":" in name)]
    if not kinds:
        return None
    inside = {i for m in kinds for i in range(m.start, m.end)}
    if any(t.is_word and i not in inside and t.norm not in _KIND_FOLLOW_UP_WORDS for i, t in enumerate(tokens)):
        return None
    return scores.read_as(parts[-1].topic)


# How a question may open before its words: a list item's mark and a conjunction ("2. E se…", "b) But in that…").
QUESTION_OPENING = r"^\W*(?:\d+\W+|[a-z]\W+)?(?:(?:e|y|and|mas|but|pero) )?"
# A question opening on a supposition ("E se o projeto derrapar…", "¿Y si me quedo…", "What if we limit…").
_WHAT_IF = re.compile(QUESTION_OPENING + r"(?:se|si|if|what if|caso|en caso de que|"
                      r"suppose|supposing|imagine que|imaginemos que|y en el caso de que|e no caso de|"
                      # a step still to come ("once the Lisbon office is open, what changes…?", "assim que abrirmos")
                      r"once|as soon as|assim que|uma vez que|una vez que|en cuanto)\b")


# "…, e se sim, a que taxa?", "if so": the same question going on, no supposition of its own
_IF_SO = re.compile(QUESTION_OPENING + r"(?:se sim|se for o caso|si es asi|si es el caso|en caso afirmativo|if so|"
                    r"if yes|if that is the case|if that's the case)\b")


def supposes(text: str) -> bool:
    """The question opens on a supposition of its own ("2) E se mais pra frente eles contratarem um gerente…"), not
    on "if so"."""
    folded = fold(text)
    return bool(_WHAT_IF.match(folded)) and not _IF_SO.match(folded)


# Below this, the model is unsure of a supposition's topic; above, it reads one of its own ("Si pago en España,
# ¿Brasil me deja descontar ese impuesto?" is relief, 0.83; "si alguno de los dos países lo denuncia…", 0.56).
WHAT_IF_UNSURE = 0.5


def _what_if_follow_up(span: Span, named: set[str], scores: TopicScores,
                       parts: list[PartTopic]) -> TopicScores | None:
    """A supposition that names no topic of its own and that the model reads unsure, after a part in scope ("O
    Brasil pode tributar o meu ordenado destes quatro meses? E se eu acabar por ficar lá 7 meses seguidos, muda
    alguma coisa?"), asks that part again under other facts: its topic is that part's, and it is a part of its
    own however unsure the reading (the facts it supposes are not the story's); so is a question whether the answer
    would change, however surely it is read. None when it is no such supposition."""
    if named or not parts or parts[-1].out_of_scope or scores.topic == parts[-1].topic or \
            _side_word(span) is not None:
        return None
    # "Caso ela obtenha a nacionalidade brasileira, a resposta seria diferente?"
    if not asking_words().changes.find(tokenize(span.text)) and \
            (scores.confidence >= WHAT_IF_UNSURE or not _WHAT_IF.search(fold(span.text))):
        return None
    return scores.read_as(parts[-1].topic)


# Below this, a question that names no topic is read from the sentence before it, when that one names a topic the
# model also ranks among its first three ("…quer corrigir o lucro por causa dos preços de transferência. Pela
# convenção pode fazê-lo?"). Set by hand, not tuned on the bank.
ANAPHOR_UNSURE = 0.35
ANAPHOR_RANKS = 3


def _told_before(span: Span, named: set[str], scores: TopicScores, told: list[Span],
                 language: str) -> TopicScores:
    """A question that names no topic and that the model reads unsure ("pode fazê-lo?", "is that allowed?") asks
    about what the sentence just before it tells, when that sentence names one topic only and the model ranks it
    among its first few (`told`: the ticket's sentences), or when it names only a tax the treaties do not cover
    ("Me dicen que el comprador tendría que pagar ITP… ¿Es así?"): out of scope."""
    if named or scores.confidence >= ANAPHOR_UNSURE or scores.topic == OUT_OF_SCOPE:
        return scores
    before = [s for s in told if s.end <= span.start]
    if not before or before[-1].asks:
        return scores
    topics_before = {m.value for m in topic_matches(tokenize(before[-1].text), language)}
    if not topics_before and _side_word(before[-1]):
        return scores.read_as(OUT_OF_SCOPE)
    if len(topics_before) != 1:
        return scores
    topic = next(iter(topics_before))
    if topic == scores.topic or topic not in [t for t, _ in scores.ranked[:ANAPHOR_RANKS]]:
        return scores
    return scores.read_as(topic)


# "Qual o teto de cada um?", "¿Tipos máximos para cada uno?", "the cap on each": one question on several incomes.
_EACH = re.compile(r"\b(?:cada (?:um|uma|uno|una)|each (?:one|of them|income)|for each|on each|of each)\b")


def _each_income(span: Span, text: str, topic: str, language: str) -> list[str]:
    """The other capped incomes the ticket names, when a question on one of them asks about each one."""
    if topic not in CAPPED or not _EACH.search(fold(span.text)):
        return []
    named = [m.value for m in topic_matches(tokenize(text), language)]
    return [t for t in dict.fromkeys(named) if t in CAPPED and t != topic]


def read_parts(text: str, model: TopicModel) -> list[PartTopic]:
    """The ticket's parts in the order they are asked."""
    parts: list[PartTopic] = []
    language = detect_language(text)
    tokens = tokenize(text)
    hits = Hits(tokens)
    told = sentences(text)
    for span, scores in _split(text, asking(text), model, language):
        named = _named(span, language)
        scores = _told_before(span, named, scores, told, language)
        outside = _other_treaty(span, language)
        other = outside is not None
        if other:
            scores = TopicScores(((OUT_OF_SCOPE, max(scores.confidence, SAME_TOPIC_KEPT)),))
        else:
            scores = _named_subject(span, _mechanism(named, _in_force(named, _company_residence(scores, text, tokens,
                                                                                               language))))
        scores = _profit_not_pay(span, _self_employed(_study_pay(_public_pay(_special_pay(named, scores), hits, tokens),
                                                                hits), hits), text, language)
        scores = _cap_follow_up(named, _side_question(span, named, scores), parts)
        scores = _country_follow_up(span, language, scores, parts)
        supposed = _what_if_follow_up(span, named, scores, parts) or _kind_follow_up(span, scores, parts)
        scores = supposed or scores
        same = next((k for k, p in enumerate(parts) if _same_part(p, span, scores.topic)), None)
        if supposed is None and ((same is not None and scores.confidence < SAME_TOPIC_KEPT) or
                                 (parts and scores.confidence < FOLLOW_UP)):
            continue
        parts.append(PartTopic(span, scores.topic, scores.confidence, _runner_up(scores), other, outside or ()))
        parts += [PartTopic(span, t, scores.confidence) for t in _each_income(span, text, scores.topic, language)
                  if not any(p.topic == t for p in parts)]
    return parts


def out_of_scope_code(text: str, part: PartTopic) -> str:
    """What an out-of-scope part asks about ("vat", "inheritance", ...): the lexicon's word in the part's
    sentence, else anywhere in the ticket, else "other"; "other_treaty" for a treaty the corpus does not hold."""
    if part.other_treaty:
        return "other_treaty"
    return _side_word(part.question) or _side_word(Span(0, len(text), text)) or "other"
