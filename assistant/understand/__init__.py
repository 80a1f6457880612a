"""Deterministic reading of a taxpayer's question: which treaty, which direction, which topic, which facts.

No network: word lists (assistant/lexicon/*.yaml) and a few grammar rules about the words around each
country, number and date; the trained readers (a part's topic, the residence of a treaty's two States) are
passed in by the caller. The treaty list comes from the caller (catalog/rules), so a new
treaty is understood as soon as its countries are in the lexicon. Numbers the user states are kept only
as facts or as claims to check (stated_rates); rates in answers never come from the question.

One module per job: language, places (countries and roles), treaty (pair, direction, candidate
readings), topics, facts, safety (input checks, injection); this module assembles them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Collection, Mapping

from assistant.lexicon.text import fold, tokenize
from assistant.understand.facts import Hits, StatedFacts, read_facts
from assistant.understand.language import LANGUAGES, detect_language
from assistant.understand.places import Grammar, assign_roles, find_mentions, roles_of, unique
from assistant.understand.query import Query, Reading
from assistant.understand.residence import lives_here
from assistant.understand.rights_facts import inviting_state, read_rights_facts
from assistant.understand.safety import MAX_QUESTION_CHARS, evasion, injection, mentions_mli, validate_question
from assistant.understand.topics import is_employment, lexicon_topics, read_topics
from assistant.understand.treaty import Direction, direction, treaty_in_words
from rules.facts import INCOME_TYPES, TiebreakerFacts

__all__ = ["DecideTopic", "LANGUAGES", "MAX_QUESTION_CHARS", "Query", "Reading", "detect_language", "scheme_named",
           "understand", "validate_question"]


# Of a treaty's two States, the residence the trained direction reader reads and its probability, given the
# text, its tokens and country mentions, the two States, the topic and the grammar's own residence (or None).
ReadResidence = Callable[[str, list, list, tuple[str, str], "str | None", "str | None"], tuple[str, float]]
VISITING_TOPICS = ("students", "professors")    # the person lives in the State visited, resident of the other

# Given the topics the lexicon found (several incomes, or none: any topic), the one to read the question as,
# or None to keep the lexicon's reading. The pipeline's is the nearest-example classifier.
DecideTopic = Callable[[tuple[str, ...]], "str | None"]

# Incomes whose taxing rights the rules give, besides the salary (which the tie-breaker can decide).
OTHER_INCOMES = INCOME_TYPES + ("immovable_property", "capital_gains", "pensions", "government_service",
                                "independent_services", "directors_fees", "artistes_sportsmen", "students",
                                "professors", "business_profits", "other_income")


def _tiebreaker_question(facts: TiebreakerFacts | None, topic_list: tuple[str, ...]) -> bool:
    """Homes in both States, where the family lives, or a company's place of management, with no income and no
    question-type topic named: the question is who the person is resident of (art. 4). A named income other
    than the salary ("o aluguel paga imposto onde?") keeps the question about that income."""
    if facts is None or (topic_list and topic_list[0] not in ("employment", "residence")):
        return False
    if set(topic_list) & set(OTHER_INCOMES):
        return False
    homes = facts.permanent_home_in
    strong = (homes is not None and len(homes) != 1) or facts.vital_interests_in is not None
    return strong or not topic_list


def _domestic(mentions: list, treaty: str | None, topic_list: tuple[str, ...]) -> bool:
    """One country only, named both as where the person lives and where the income comes from ("sou residente
    em Portugal e vendi acções da Galp"): no foreign element, so no treaty applies. Not so when the person has
    left it ("moro fora do Brasil desde 2021")."""
    codes = {m.code for m in mentions}
    roles = {m.role for m in mentions}
    return (treaty is None and len(codes) == 1 and "residence" in roles and "former_residence" not in roles
            and bool(roles & {"source", "property"})
            and bool(set(topic_list) & set(INCOME_TYPES + ("capital_gains", "immovable_property"))))


def _trained_direction(way: Direction, read_residence: ReadResidence, text: str, tokens: list, mentions: list,
                       treaties: Mapping[str, tuple[str, ...]], topic: str | None) -> tuple[Direction, bool]:
    """The trained reader's residence of the treaty's two States (then True); the other is the source. It
    decides whenever the treaty has two States: grouped CV on the train split (1,641 tickets, 5 folds by page)
    reads 91.3% of residences right when it decides only from probability 0.6 (the grammar's reading standing
    below), 93.3% when it always decides, against 66.7% for the grammar alone (on 1,788 tickets: 94.1% with the
    words around a mention read in a 3-word window, singly and as pairs, against 93.7% with 6 single words)."""
    parties = _pair(way, treaties)
    if parties is None:
        return way, False
    state, _ = read_residence(text, tokens, mentions, parties, topic, way.residence)
    if state == way.residence and way.source is not None:
        return way, True                 # both readers agree: the reading stands
    return _resident_of(way, parties, state), True


def _pair(way: Direction, treaties: Mapping[str, tuple[str, ...]]) -> tuple[str, str] | None:
    """The two States of the reading's treaty, or None (no treaty, or the MLI)."""
    parties = tuple(dict.fromkeys(treaties.get(way.treaty or "", ())))
    return (parties[0], parties[1]) if len(parties) == 2 else None


def _resident_of(way: Direction, parties: tuple[str, str], state: str) -> Direction:
    """The reading with `state` as the residence and the treaty's other State as the source."""
    return replace(way, residence=state, source=parties[1 - parties.index(state)])


def _clients_pay(mentions: list) -> None:
    """"soy autónomo en Valencia … para una empresa de São Paulo": beside the person's own place, a company of
    another State read as a residence is the client they work for, so the payer (the source)."""
    person = {m.code for m in mentions if m.role == "residence" and not m.company}
    for m in mentions:
        if person and m.role == "residence" and m.company and m.code not in person:
            m.role = "source"


# "a Portuguese diplomat", "diplomático brasileño", "funcionário público brasileiro": the nationality written
# this close to a public post names the State the person serves
_SERVANT_NEAR = 2


def _paid_by_a_state(way: Direction, mentions: list, treaties: Mapping[str, tuple[str, ...]], g: Grammar,
                     hits: Hits) -> Direction:
    """Art. 19 pay is the paying State's to tax, whoever reads the residence: the one State of the treaty that
    pays ("a Câmara Municipal do Porto", "la Embajada de Brasil") or that the person serves ("a Portuguese diplomat
    posted to Brasília") is the source, the other the residence."""
    parties = _pair(way, treaties)
    if parties is None:
        return way
    payers = {m.code for m in mentions if m.role == "source" and m.code in parties and
              (g.right(m.end)[1] == "role:government" or "role:government" in g.categories_before(m.start - 1, 3))}
    if not payers:
        payers = {m.code for m in mentions for post in hits("public_servant")
                  if m.code in parties and not m.company and m.role in (None, "nationality")
                  and (0 <= post.start - m.end <= 1 or 0 <= m.start - post.end <= _SERVANT_NEAR)}
    if len(payers) != 1:
        return way
    payer = payers.pop()
    return _resident_of(way, parties, parties[1 - parties.index(payer)])


_SCHEME_NEAR = 2     # tokens from "Segurança Social" to the demonym that says whose it is ("… portuguesa")


def _paid_by_a_scheme(way: Direction, mentions: list, treaties: Mapping[str, tuple[str, ...]],
                      hits: Hits) -> Direction:
    """A social-security pension is paid by one State's scheme ("aposentado pelo INSS", "la pensión de la
    Seguridad Social española", "the kosei nenkin"): when every scheme the ticket names is placed in one and the
    same treaty State, that State is the source and the other the residence, whoever the words say lives where."""
    parties = _pair(way, treaties)
    payer = _scheme_payer(mentions, parties, hits) if parties else None
    return way if payer is None or parties is None else _resident_of(way, parties, parties[1 - parties.index(payer)])


def _scheme_payer(mentions: list, parties: tuple[str, str], hits: Hits) -> str | None:
    """The one State of `parties` whose social-security scheme the words name, if one."""
    def whose(c) -> set[str]:
        return {m.code for m in mentions if m.code in parties and not m.company and
                (m.start < c.end and c.start < m.end or 0 <= m.start - c.end <= _SCHEME_NEAR)}
    owners = [whose(c) for c in hits("pension_kind:social_security")]
    payers = set().union(*owners) if owners else set()
    if len(payers) != 1 or not all(owners):
        return None          # two schemes, or one whose State the words leave open ("contribuí pra Seguridad Social")
    return payers.pop()


def scheme_named(text: str, parties: tuple[str, str]) -> str | None:
    """The State whose social-security scheme a question's own words name ("would Portugal then get to tax the
    INSS money?"), when they name one: a later question's pension, whatever schemes the story names."""
    tokens = tokenize(text)
    return _scheme_payer(find_mentions(text, tokens, detect_language(text, tokens)), parties, Hits(tokens))


_HOME_PLACE_AFTER = 3     # "trabalho 100% de casa, em Curitiba": the place right after working from home


def understand(text: str, treaties: Mapping[str, tuple[str, ...]], decide_topic: DecideTopic | None = None,
               topic: str | None = None, read_residence: ReadResidence | None = None,
               set_aside: Collection[str] = ()) -> Query:
    """Read a question. Never raises on text input; validate_question() first to reject bad input.
    `topic`: the part's topic as the trained reader read it; the lexicon's other topics follow it.
    `read_residence`: the trained direction reader (assistant.understand.direction_model).
    `set_aside`: countries only the ticket's questions on other treaties are about ("¿Y los clientes de
    EE.UU.?"): they take no part in the direction of the rest."""
    text = text if isinstance(text, str) else ""
    tokens, folded = tokenize(text), fold(text)
    lang = detect_language(text, tokens)
    found = read_topics(tokens, lexicon_topics(tokens, lang))
    topic_list, method = found.topics, "lexicon" if found.topics else None
    incomes = tuple(t for t in topic_list if t in INCOME_TYPES)
    if topic is not None:
        topic_list, method = (topic, *(t for t in topic_list if t != topic)), "trained"
    elif decide_topic is not None and not found.out_of_scope and (not topic_list or len(incomes) > 1):
        chosen = decide_topic(incomes)
        if chosen:
            topic_list, method = (chosen, *(t for t in topic_list if t != chosen)), "exemplar"
    grammar = Grammar(tokens)
    mentions = find_mentions(text, tokens, lang)
    # the topic a reader decided is the subject, whatever income words stand beside it ("a software company")
    employment = topic == "employment" or is_employment(topic_list)
    assign_roles(mentions, grammar, employment)
    _clients_pay(mentions)
    roles = roles_of(mentions)

    def role(*names: str) -> tuple[str, ...]:
        return unique(c for n in names for c in roles.get(n, ()))

    hits = Hits(tokens)         # the fact cues, found once for the treaty, the stated facts and the rights facts
    # "trabalho a partir de Aveiro": where one is; "sempre morei aqui", "trabalho 100% de casa, em Curitiba"
    residence_states = role("residence") or role("base") or lives_here(tokens, mentions) or \
        unique(m.code for m in mentions if not m.company and
               any(0 <= m.start - h.end <= _HOME_PLACE_AFTER for h in hits("work_at_home")))
    # a State the person says they left or live outside ("moro fora do Brasil desde 2021") is not the residence,
    # whatever the later words seem to say ("a Receita", "…do Brasil")
    left = {m.code for m in mentions if m.role == "former_residence"}
    residence_states = tuple(c for c in residence_states if c not in left)
    # rent and gains come from where the property is; a job named beside them is context, not the source
    homes = ("home",) if {"immovable_property", "capital_gains"} & set(topic_list) else ()
    if not residence_states and not homes and len(role("home")) == 1:
        residence_states = role("home")          # "trabalho de casa, em Natal": one home, where one lives
    work = () if set(topic_list[:1]) & {"immovable_property", "capital_gains"} else ("work",)
    # fees, royalties, interest: the client who pays ("consultoría para una empresa de São Paulo") is the
    # source, after any State the question names as such
    sources = ("source", *work, "property", *homes, "pe", "employer")
    if work and employment:
        sources = ("work", "source", "property", *homes, "pe")   # a salary comes from where the work is done
    kept = [m for m in mentions if m.code not in set_aside]
    way = direction(folded, kept, treaties, tuple(c for c in residence_states if c not in set_aside),
                    tuple(c for c in role(*sources) if c not in set_aside), lang, bool(topic_list),
                    third_named=bool(hits("third_state")), named_in_words=treaty_in_words(tokens, mentions, treaties))
    first = topic_list[0] if topic_list else None
    trained = False      # the trained reader decided the residence (in the treaty's sense: a student's home)
    if read_residence is not None and first != "residence" and (first or len(residence_states) < 2):
        # a question of residence (two homes, no other subject) is the tie-breaker's to decide
        way, trained = _trained_direction(way, read_residence, text, tokens, mentions, treaties, first)
    if first == "government_service":
        way = _paid_by_a_state(way, mentions, treaties, grammar, hits)
    elif first == "pensions":
        way = _paid_by_a_scheme(way, mentions, treaties, hits)
    # one country named ("cliente brasileiro"): the States of every candidate treaty, so that facts about the
    # named State (who pays, who works where) are read for each reading
    parties = set(treaties.get(way.treaty, ())) if way.treaty else \
        {c for r in way.readings for c in treaties.get(r.treaty, ())}
    work_state = (role("work") or role("base") or (None,))[0]
    if work_state is None and employment:
        work_state = way.source

    def read_at(work: str | None) -> StatedFacts:
        """The stated facts with the work done in `work` (read again when the stay moves the work)."""
        return read_facts(tokens, hits, folded, lang, topic_list, grammar, mentions, roles, parties, work,
                          home=way.residence)
    stated = read_at(work_state)
    stay = stated.facts.employment
    stay_home = stated.stay_state is not None and stated.stay_state == way.residence
    if employment and stay_home and not (role("work") or role("base")) and work_state != way.residence:
        # "moro no Porto e trabalho para uma empresa de BH; já estou cá há 250 dias": the days are spent, and the
        # work done, where one lives; the employer's State is not where the work is
        work_state = way.residence
        stated = read_at(work_state)
    elif first in ("employment", None) and employment and work_state == way.residence and \
            way.source in parties and not stay_home and \
            (stay.stays or stay.stay_days is not None or stay.stay_months is not None) and \
            stay.stay_unit != "years" and not hits("never_there"):   # not "six years in Japan", then back home
        # "trabajo en Madrid … y viajo a Brasil 120 días al año": the stay, and so the 183-day test, is the
        # other State's (art. 15(2)), not the one where one lives and works
        work_state = way.source
        stated = read_at(work_state)
    host_state = inviting_state(topic_list, mentions, parties, hits)
    if host_state is None and trained and first in VISITING_TOPICS and way.source:
        host_state = way.source     # the trained reader's residence of a student is the home State (the treaty's)
    facts = read_rights_facts(stated.facts, topic_list, mentions, roles, parties, way.residence, way.source,
                              folded, hits, tokens,
                              visited=host_state or way.residence,   # the grammar's: where one lives
                              stay_home=stay_home)
    if len(residence_states) == 2 and "residence" not in topic_list:
        topic_list = topic_list + ("residence",)
    vetoed = found.out_of_scope if topic is None else None     # the trained reader saw the same words
    domestic = not hits("foreign") and _domestic(mentions, None if way.inferred else way.treaty, topic_list)
    out_of_scope = vetoed or ("domestic" if domestic else None)
    if topic is None and _tiebreaker_question(facts.residence, topic_list):
        topic_list = ("residence", *(t for t in topic_list if t != "residence"))
    return Query(
        text=text, language=lang, countries=unique(m.code for m in mentions),
        treaty=way.treaty, treaty_inferred=way.inferred, pair_not_covered=way.not_covered,
        residence_state=way.residence, source_state=way.source, residence_states=residence_states,
        work_state=work_state, topic=topic_list[0] if topic_list else None, topics=topic_list,
        topic_method=method, out_of_scope=out_of_scope,
        side_notes=found.side_notes, facts=facts, host_state=host_state,
        pe_state=(role("pe") or (None,))[0], pe_named=grammar.names("role:pe"),
        site_named=bool(hits("building_site")),
        injection=injection(folded), evasion=evasion(folded), mentions_mli=mentions_mli(folded),
        stated_rates=stated.stated_rates,
        readings=way.readings,
    )
