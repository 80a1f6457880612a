"""Where a ticket asks: its sentences and the ones that ask something, as character spans of the text.

A long e-mail tells a story and asks one or more questions; the reader classifies what each asking
sentence asks, with the whole ticket as context. A sentence asks when it has a question mark; a ticket
without one asks in its last sentence ("Preciso saber quem tributa a pensão.").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.lexicon import asking_words
from assistant.lexicon.text import fold, tokenize

# A sentence ends at ? ! ; or a line break, or at a full stop followed by a space and a capital or an
# opening mark (never inside "art. 10", "Lda. em", "10.5" or "U.S."), or at a colon, or a full stop and a space,
# before an item of a list ("…exterior). 1) o Brasil pode…", in a ticket typed without capitals; not "juros de
# 8% a.a. sobre…"). In a ticket typed without capitals ("preciso de uma ajuda rapida. sou portuguesa e…") a
# full stop after a word of two letters or more ("…from it. two questions:") or a percentage ("…de 25%. mas pela
# convenção…") ends one too (`low`), unless the word is an abbreviation ("art", "etc", "vol"); so does
# an ellipsis before a space ("…pagar el 24%... pero si ya no vivo en españa puede hacienda cobrarme").
_MARK_BODY = r"[ivx]{1,4}|[a-h]|\d{1,2}"             # an item's number, letter or Roman numeral
_MARK = rf"\(?(?:{_MARK_BODY})[).]"                  # an item's mark: "(i)", "b)", "2."
# A question whose mark was left off ends before a capital that opens the next one after a word in lower case
# ("Quem tributa a pensão E o aluguel, quem tributa", "who taxes the pension What about the rent", "…under the
# treaty Also, will the company…"): "E", "Y", "And", "Also" or an interrogative written with its capital in
# mid-sentence.
_OPENS = (r"E|Y|And|But|Mas|Pero|Also|Além|Ademais|Además|Second|Secondly|Segundo|Tamb[ée]m|Outra|Otra|Another|"
          r"Qual|Quais|Quanto|Quem|Como|Onde|Quando|Porque|Qu[ée]|Cu[áa]l|Cu[áa]nto|Qui[ée]n|"
          r"C[óo]mo|D[óo]nde|Cu[áa]ndo|What|Which|How|Where|Who|When|Why|"
          # a question that opens with its verb ("…não impede isso Devo cobrar IVA", "…em Portugal Há crédito")
          r"H[áa]|Devo|Devemos|Posso|Podemos|Pode|Podem|Tenho|Temos|Preciso|Precisamos|Puedo|Debo|Debemos|Tengo|"
          r"Tenemos|Hay|Is|Are|Can|Could|Does|Should")
# A question typed in lower case after a short word's full stop ("spain taxes an imputed income on it. is that
# allowed"): the words that open one; after a dash, an interrogative ("…pays dividends and JCP — what's the max
# withholding…", not "…pay a flat 10% in Portugal — is that right?", whose words before the dash it asks about).
_ASKING_WORDS = (r"what|who|which|how|where|when|why|qual|quais|quem|onde|quando|quanto|cual|cuales|cuanto|quien|"
                 r"donde|cuando")
_LOW_OPENS = rf"is|are|can|could|do|does|did|will|would|should|may|must|posso|pode|podem|devo|puedo|puede|pueden|" \
             rf"debo|{_ASKING_WORDS}"
# What labels the questions that follow ("Duas perguntas:", "my questions:", "dudas:")
_LABEL_BODY = (r"(?:(?:duas|dos|two|tr[êe]s|three|algumas|algunas|some|a|as|la|las|the|my|our|minha|minhas|"
               r"nossa|nossas|mi|mis|nuestra|nuestras)\s+)?(?:perguntas?|quest(?:[õo]es|[ãa]o)|consultas?|"
               r"preguntas?|cuesti[óo]n|cuestiones|questions?|d[úu]vidas?|dudas?)")
_END = re.compile(rf"[?!]+|;|\n+|(?:\.{{3}}|…)(?=\s)|\.(?=\s+[A-ZÀ-Ý¿¡\"'(])|\.\s*$|:(?=\s*{_MARK}\s)|"
                  rf"\.(?=\s+{_MARK}\s)|\.(?=\s+(?i:{_LABEL_BODY})\s*:)|"
                  rf"(?P<dash>(?<=\S)\s+[—–-](?=\s+(?i:{_ASKING_WORDS})\W))|"
                  rf"(?P<opens>(?<=[^\W\d_]{{2}})\.(?=\s+(?:{_LOW_OPENS})\s))|"
                  rf"(?P<low>(?:(?<=[^\W\d_]{{2}})|(?<=%))\.(?=\s+[a-zà-ÿ]))|"
                  rf"(?:(?<=[a-zà-ÿ]{{2}})|(?<=[A-ZÀ-Ý%]))(?=\s+(?:{_OPENS})[\s,])")
# A title before a name ("el salario del Dr. Tanaka", "Mrs. Sato"): its full stop ends no sentence
_TITLES = {"dr", "dra", "drs", "dras", "sr", "sra", "srs", "sras", "sres", "srta", "mr", "mrs", "ms", "prof", "profa",
           "profs", "dña", "exmo", "exma", "eng", "ing", "lic"}
_ABBREVIATIONS = _TITLES | {
    "ltda", "dpto", "depto", "dept", "aprox", "approx", "avda", "exmos", "exmas", "excmo", "excma", "ilmo", "ilma",
    "tlfn", "telf", "govt", "corp", "intl", "vols", "pags", "nums", "cols", "trad", "coord", "admin", "assoc", "sept",
    "univ", "secr", "trav", "apto", "vol", "cap", "ref", "pag", "pág", "num", "núm", "doc", "proc", "min", "max",
    "obs", "ed", "al", "op", "cit", "dec", "tel", "ext", "ind", "id", "fig", "pp", "cod", "cód", "reg", "etc",
    # short ones, before a word that opens a question ("a Lda. pode…", "art. 15 … o Dr. pode…")
    "lda", "art", "arts", "nr", "ex", "vs", "cf", "ltd", "inc", "av", "st", "sa", "sl", "co"}
_LAST_WORD = re.compile(r"[\w-]+$")
_QUOTED = r"(?:>\s*)*"                               # a forwarded e-mail's quote marks ("> 1. Qual…")
_BARE_MARK = re.compile(rf"^{_QUOTED}{_MARK}$", re.IGNORECASE)
LOW_END_LETTERS = 2
# An item of a list of questions: "(i) qual a taxa…;", "b) se…", "2. Como…", "3- da pra…", "- what…", quoted or not.
_NUMBER_MARK = rf"(?:{_MARK}|\d{{1,2}}\s?-)"           # a numbered or lettered item's mark ("2)", "b.", "3-")
_ITEM = re.compile(rf"^{_QUOTED}(?:{_NUMBER_MARK}|[-•*–])\s+", re.IGNORECASE)
# A header line: an e-mail's subject or a forum post's title restates what the body asks.
_HEADER = re.compile(r"^[>\s]*(?:subject|assunto|asunto|t[íi]tulo|title|re|fwd?|enc|rv)\s*:", re.IGNORECASE)


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str

    @property
    def asks(self) -> bool:
        """A question mark, or Spanish's opening one with the closing one left off ("¿Y cánones por software")."""
        return "?" in self.text or "¿" in self.text


def sentences(text: str) -> list[Span]:
    """Non-empty sentences, stripped, with their offsets in the text."""
    out, start = [], 0
    for m in _END.finditer(text):
        if (m.group() == "." and _titled(text, m.start())) or \
                (m.group("low") and not _ends_word(text, m.start())) or \
                (m.group("opens") and _abbreviated(text, m.start())) or \
                (m.group() == "." and _BARE_MARK.match(text[start:m.end()].strip())) or \
                (m.group("dash") and _named_before(text[start:m.start()])):
            continue                                   # "1. Whether Portugal may tax…": the item's own mark
        _add(out, text, start, m.end())
        start = m.end()
    _add(out, text, start, len(text))
    return out


NAMED_BEFORE_WORDS = 6      # "And the prefectural government pension – which country…": what the question is about


def _named_before(piece: str) -> bool:
    """The words before a dash name what the question after it asks about: a lead-in and a few words ("And the
    prefectural government pension – which country has the right to tax it?", "E a renda do Porto — quem
    tributa?"), not a statement of the case."""
    words = [t for t in tokenize(piece.strip()) if t.is_word]
    return 0 < len(words) <= NAMED_BEFORE_WORDS and bool(asking_words().lead_ins.find(words[:1]))


def _titled(text: str, end: int) -> bool:
    """The word before a full stop (at `end`) is a title and a capitalised name follows it."""
    word = _LAST_WORD.search(text, max(0, end - 40), end)
    return word is not None and word.group().lower() in _TITLES and \
        bool(re.match(r"\.\s+[A-ZÀ-Ý][a-zà-ÿ]", text[end:end + 6]))


def _abbreviated(text: str, end: int) -> bool:
    """The word before a full stop (at `end`) is a known abbreviation ("Lda", "Prof")."""
    word = _LAST_WORD.search(text, max(0, end - 40), end)
    return word is not None and word.group().lower() in _ABBREVIATIONS


def _ends_word(text: str, end: int) -> bool:
    """The text before a full stop (at `end`) ends with a word ("rapida", "mudei-me") long enough not to be an
    abbreviation ("art", "etc") and not a known one ("Ltda", "Dpto")."""
    if text[end - 1:end] == "%":
        return True                               # "…retenção de 25%. mas pela convenção…"
    word = _LAST_WORD.search(text, max(0, end - 40), end)
    return word is not None and sum(c.isalpha() for c in word.group()) >= LOW_END_LETTERS and \
        not _abbreviated(text, end)


# An item's mark inside a sentence ("…tributar o cachê 2) Esse valor…", "(2) will the salaries…"): it starts a
# sentence when the mark before it in its series ("1)", "(1)", "a)", "(i)") opens an item earlier in the text.
_INLINE_MARK = re.compile(rf"(?<=\s)(\(?)({_MARK_BODY})\)(?=\s)", re.IGNORECASE)
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


def _previous_marks(mark: str) -> set[str]:
    """The marks that come just before `mark` in a numbered, lettered or Roman list ("2" <- "1", "ii" <- "i")."""
    m = mark.lower()
    out = set()
    if m.isdigit():
        out.add(str(int(m) - 1))
    if len(m) == 1 and "b" <= m <= "h":
        out.add(chr(ord(m) - 1))
    if m in _ROMAN[1:]:
        out.add(_ROMAN[_ROMAN.index(m) - 1])
    return out


def _inline_item(text: str, start: int, end: int) -> int | None:
    """Where an item's mark inside text[start:end] starts another sentence (see _INLINE_MARK), if anywhere."""
    for m in _INLINE_MARK.finditer(text, start, end):
        if not text[start:m.start()].strip():
            continue
        for before in _previous_marks(m.group(2)):
            earlier = rf"(?:^|(?<=\s)){re.escape(m.group(1))}{re.escape(before)}\)\s"
            if re.search(earlier, text[:m.start()], re.IGNORECASE):
                return m.start()
    return None


def _add(out: list[Span], text: str, start: int, end: int) -> None:
    """The piece as a sentence; a Spanish question opened while another is still open starts a sentence of its
    own ("¿Cuál es el tope ¿Y por software", the closing marks left off), and so does an item of a list written
    on one line ("1) A Espanha pode reter 2) Esse valor…")."""
    item = _inline_item(text, start, end)
    if item is not None:
        _add(out, text, start, item)
        _add(out, text, item, end)
        return
    second = text.find("¿", text.find("¿", start, end) + 1, end) if "¿" in text[start:end] else -1
    if second > start and text[start:second].strip():
        _add(out, text, start, second)
        _add(out, text, second, end)
        return
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    body = piece.strip()
    if any(c.isalnum() for c in body):
        out.append(Span(start + lead, start + lead + len(body), body))


ITEM_REACH = 3       # sentences from a list item's mark to the question that closes it


# A sentence that counts off the question it leads to in prose ("Second, the group is considering…; would the
# limits still apply?", "Em segundo lugar,", "Question 2:"): an item's mark in words.
_COUNTED = re.compile(r"^\W*(?:second(?:ly)?|third(?:ly)?|finally|em segundo lugar|em terceiro lugar|por fim|"
                      r"en segundo lugar|en tercer lugar|por [úu]ltimo|(?:question|pergunta|pregunta|quest[ãa]o|"
                      r"cuesti[óo]n)\s*\d)\b", re.IGNORECASE)


def item_start(text: str, span: Span) -> int:
    """Where the list item that the asking `span` closes starts ("1) Hiroshi worked 35 years at Osaka City Hall and
    receives a kyosai pension. Which country taxes it?", "Second, the group is considering…; would…?"): the
    sentence with its mark, on the question's line, when no sentence between asks; else the span's own start."""
    if _ITEM.match(span.text) or _COUNTED.match(span.text):
        return span.start
    before = [s for s in sentences(text) if s.end <= span.start][-ITEM_REACH:]
    for s in reversed(before):
        if s.asks or "\n" in text[s.end:span.start]:
            break                                 # the item is on the question's line
        if _ITEM.match(s.text) or _COUNTED.match(s.text):
            return s.start
    return span.start


# A sentence labelled as the question or questions ("Pergunta: quem tributa…", "Duas questões: os lucros…",
# "dudas: ¿puede…"); the word alone is no request ("tengo la consulta principal en Vigo")
_LABEL = rf"^{_LABEL_BODY}\s*:"
_LABELLED = re.compile(_LABEL + r"\s*\S", re.IGNORECASE)
_LABEL_ALONE = re.compile(_LABEL + r"$", re.IGNORECASE)      # "dos dudas:" before the list of them


def _introduces_facts(span: Span, after: Span | None) -> bool:
    """A request that introduces the facts of the question right after it ("Aproveito para perguntar outra coisa:
    estamos a negociar uma obra em Campinas de oito meses." / "Nesse caso o Brasil pode tributar o lucro?"): what
    follows its colon, or its "another question" marker ("outra coisa, a gente pensa em alugar o apê."), states, and
    the next sentence asks with its mark."""
    if after is None or not after.asks or span.asks:
        return False
    head, colon, rest = span.text.partition(":")
    if colon and rest.strip() and asking_words().requests(tokenize(head)):
        return not _opens_asking(rest.strip())
    # "outra coisa, a gente pensa em alugar o apê uns 2 anos." before "Portugal cobra imposto desse aluguel?"
    tokens = tokenize(span.text)
    lex = asking_words()
    marker = lex.next_question.find(tokens)
    if not marker or lex.request_phrases.find(tokens) or lex.requests(tokens[marker[0].end:]):
        return False
    told = span.text[tokens[marker[0].end - 1].end:].lstrip(" ,:;-–—")
    return bool(told) and not _opens_asking(told)


def _labelled_story(span: Span, later: list[Span]) -> bool:
    """A label that opens the story, not a question ("Consulta: soy residente en Madrid y heredé un apartamento en
    Florianópolis." … "¿Quién grava el alquiler?"): what follows the label states, and a later sentence asks with
    its mark."""
    if span.asks or not _LABELLED.match(span.text) or not any(s.asks for s in later):
        return False
    rest = span.text.partition(":")[2].strip()
    words = tokenize(rest)
    return not _opens_asking(rest) and not asking_words().requests(words) and not asking_words().unmarked.find(words)


def _requests(span: Span) -> bool:
    """A request phrase ("gostaria de saber", "quisiera saber", "please confirm") in a sentence that does not
    introduce a list of questions (which ends in a colon)."""
    return not span.text.endswith(":") and (bool(_LABELLED.match(span.text)) or
                                            bool(asking_words().requests(tokenize(span.text))))


def opens_question(item: str) -> bool:
    """An interrogative first, after an item's mark and any lead-in words ("E, já agora, como…")."""
    words = [t for t in tokenize(_ITEM.sub("", item)) if t.is_word]
    lex = asking_words()
    for _ in range(3):
        found = lex.interrogatives.find(words[:4])
        if found and found[0].start == 0:
            return True
        lead = lex.lead_ins.find(words[:3])
        if not lead or lead[0].start != 0:
            return False
        words = words[lead[0].end:]
    return False


_JOINING = {"and", "or", "e", "ou", "y", "o", "and/or", "e/ou", "y/o"}    # a word alone between two items


def _asked_under(spans: list[Span], j: int) -> bool:
    """A question among the few sentences from spans[j] on, before the next list item."""
    under = spans[j:j + ITEM_REACH]
    return any(s.asks for s in under[:next((n for n, s in enumerate(under) if _ITEM.match(s.text)), len(under))])


def _listed_questions(spans: list[Span]) -> set[int]:
    """Items of a list a request introduces ("Agradecíamos que nos indicassem: (i) qual a taxa…; (ii) se…", "We
    should be grateful for your views on the following: (i) …"): each asks, question mark or not, when the
    introduction requests; else each from the first that opens with an interrogative on (the items before it
    are the case's facts)."""
    out: set[int] = set()
    for k, intro in enumerate(spans):
        if not intro.text.endswith(":"):
            continue
        items = []
        for j in range(k + 1, len(spans)):
            if spans[j].text.lower() in _JOINING:
                continue                      # "(a) whether …; and\n(b) whether …"
            if not _ITEM.match(spans[j].text):
                # "(2) We may open an office in Porto. Would Portugal then tax…?", "(2) A manager spends six weeks
                # in Lisbon. Head office pays him. Is that salary taxable there?": the item told what the question
                # under it asks about
                if items and _asked_under(spans, j) and not spans[items[-1]].asks:
                    items.pop()
                break
            items.append(j)
        words = tokenize(intro.text)
        requested = bool(asking_words().requests(words) or asking_words().list_intros.find(words) or
                         _LABEL_ALONE.search(intro.text))
        opening = [j for j in items if opens_question(spans[j].text)]
        if items and requested:
            out.update(items)
        elif opening:
            out.update(j for j in items if j >= opening[0])   # "Dados:\n- pensão: 3.000 reais\n- Onde declaro…?"
    return out


def _tagged(span: Span) -> bool:
    """A statement closed by a tag that asks for confirmation ("e continuo residente de portugal, né", "sigo siendo
    residente en España, ¿verdad", "so only Japan taxes it, right")."""
    tokens = [t for t in tokenize(span.text) if t.is_word or t.norm in (",", "-", "–", "—")][-5:]
    last = [t for t in tokens if t.is_word][-4:]
    if any(m.end == len(last) for m in asking_words().tags.find(last)):
        return True
    found = asking_words().comma_tags.find(tokens)
    return any(m.end == len(tokens) and m.start > 0 and not tokens[m.start - 1].is_word for m in found)


FOLLOW_UP_REACH = 8     # words from a follow-up's lead-in to its interrogative ("e a da prefeitura quem cobra")


def _follows_up(span: Span) -> bool:
    """A lead-in first and an interrogative in the first words after it ("e a da prefeitura quem cobra o imposto",
    "y la otra cuanto pago"), and no thanks ("e quanto ao resto, obrigado")."""
    words = [t for t in tokenize(span.text) if t.is_word]
    lex = asking_words()
    return bool(lex.lead_ins.find(words[:1])) and bool(lex.interrogatives.find(words[1:1 + FOLLOW_UP_REACH])) and \
        not lex.small_talk.find(words)


# A supposition that opens a follow-up ("e se eu ficar mais um semestre e arranjar trabalho…", "y si me quedo…")
_SUPPOSES = re.compile(r"^\W*(?:(?:e|y|and|mas|pero|but)\s+)?(?:se|si|if|what if)\s", re.IGNORECASE)
# … not the courtesy that closes a ticket ("Se puderem responder hoje agradeço", "if you could reply soon")
_COURTESY = re.compile(r"^\W*(?:se|si|if)\s+(?:(?:voc[eê]s?|you|ustedes)\s+)?(?:pud\w*|poder\w*|could|can|"
                       r"possible|poss[íi]vel|posible)\b", re.IGNORECASE)


# … linked to the question before it, when more follows ("e se eu voltar…", not "Se agradece respuesta")
_LINKED = re.compile(r"^\W*(?:(?:e|y|and|mas|pero|but)\s+(?:se|si|if)|what if)\s", re.IGNORECASE)


def _supposes(text: str) -> bool:
    """Opens as a supposition (see _SUPPOSES), not as the courtesy that closes a ticket."""
    return bool(_SUPPOSES.match(text)) and not _COURTESY.match(text)


def _unclosed_follow_ups(text: str, spans: list[Span], asked: list[Span]) -> list[Span]:
    """In a ticket typed without a closing mark, the sentences after its last question that follow it up
    without their question mark: the last sentence, or a supposition of another case there ("e se eu ficar
    mais um semestre"), and the sentence right after the question, before a remark ("…por ese sueldo?? y en
    colombia tengo q declarar algo igual. aca todo carisimo jaja", "…pra me aposentar?? e se eu voltar pro
    brasil o tempo de portugal conta"); either asks, too, in the words that ask what one pays or may deduct
    ("…a um residente em portugal? depois no irs posso abater o que ja pagaram la")."""
    if not asked or not spans or text.rstrip()[-1:] in ".!?:":
        return []
    last = spans[-1]
    after = spans.index(asked[-1]) + 1 if asked[-1] in spans else len(spans)
    out = [s for s in spans[after:-1][:1] if _follows_up(s) or _asks_what_is_paid(s) or
           (_supposes(s.text) and _LINKED.match(s.text))]
    if last not in asked and asked[-1].end <= last.start and \
            (_asks_unmarked(last) or _asks_what_is_paid(last) or _opens_as_question(last.text) or
             _supposes(last.text)):
        out.append(last)
    return out


# A last sentence that opens as a question does, after a word that links it to what came before ("so doesnt the
# 183 days thing mean only portugal taxes it", "and is that the same for my wife")
_OPENS_AS_QUESTION = re.compile(rf"^\W*(?:(?:so|then|but|and|ok so|entao|entonces|e|y|mas|pero)\s+)?"
                                rf"(?:{_LOW_OPENS}|doesn'?t|isn'?t|don'?t|aren'?t|can'?t|won'?t|shouldn'?t|wouldn'?t)\s")
# … not the courtesy that asks for a reply ("quando puder responde", "when you can")
_WHEN_YOU_CAN = re.compile(r"^\W*(?:quando|cuando|when)\s+(?:puder|puderem|possa|possam|puedas|pueda|puedan|"
                           r"you can|you get|possible|possivel|posible)\b")


def _opens_as_question(text: str) -> bool:
    """Opens as a question does (see _OPENS_AS_QUESTION), and is neither the courtesy asking for a reply nor a
    sentence with thanks in it ("e quanto ao resto, obrigado")."""
    folded = fold(text)
    return bool(_OPENS_AS_QUESTION.match(folded)) and not _WHEN_YOU_CAN.match(folded) and \
        not asking_words().small_talk.find([t for t in tokenize(text) if t.is_word])


def _opens_asking(text: str) -> bool:
    """The words open a question: an interrogative first, or the way a question opens."""
    return opens_question(text) or _opens_as_question(text)


def _asks_after_colon(span: Span) -> bool:
    """What follows a colon opens as a question ("Our accountant asked two things: will Japan tax our profit…, and
    does Inês owe anything…", "a dúvida dele: quem tributa…")."""
    _, colon, rest = span.text.partition(":")
    rest = rest.strip()
    return bool(colon and rest) and _opens_asking(rest)


# The first person's modals that open the words that ask what one pays ("posso abater", "tengo que pagar"), not a
# statement of what one pays ("…eu viro residente e pago imposto espanhol")
_MODALS = {"posso", "podemos", "devo", "devemos", "tenho", "temos", "preciso", "precisamos", "puedo", "debo",
           "debemos", "tengo", "tenemos", "can", "must", "should", "do"}


def _asks_what_is_paid(span: Span) -> bool:
    """The words that ask, without a mark, what one must pay or may deduct ("posso abater", "tengo que pagar",
    "do I have to pay"), not small talk."""
    words = tokenize(span.text)
    return any(words[m.start].norm in _MODALS for m in asking_words().unmarked.find(words)) and \
        not asking_words().is_small_talk(words)


# In a ticket typed with no question mark at all, a question inside a sentence: an interrogative after a comma
# ("o meu sogro tem 20% da Ltda, qual é o limite de IRRF sobre os JCP dele") or closing it ("essa portaria se aplica
# a partir de quando"); not the words that also relate ("trabalho como engenheira", "quando me mudei", "Mr Morita,
# who holds 30%", "mi padre, quien vive en Vigo").
_ASKS_INSIDE = re.compile(r",\s*(?:(?:e|y|and|mas|but|pero)\s+)?(?:qual|quais|quem|quanto|quanta|quantos|quantas|cual|"
                          r"cuales|cuanto|cuanta|cuantos|cuantas|what|how much|how many|"
                          # "…, ele tb mora ca em portugal, como fica o dele"
                          r"como (?:fica|ficam|faco|faz|fazemos|funciona|e que|queda|quedan|hago)|"
                          r"how (?:does|do|is|would|will))\b|"
                          r"\b(?:a partir de|desde|since|from) (?:quando|cuando|when)\W*$")


def _asks_unmarked(span: Span) -> bool:
    return _follows_up(span) or bool(_ASKS_INSIDE.search(fold(span.text)))


def _item_runs(spans: list[Span]) -> list[set[int]]:
    """The runs of two or more list items in a row ("- Sou obrigado a pagar o nenkin", "- O salário…")."""
    runs: list[set[int]] = []
    run: set[int] = set()
    for k, span in enumerate([*spans, Span(0, 0, "")]):
        if _ITEM.match(span.text):
            run.add(k)
            continue
        if len(run) >= 2:
            runs.append(run)
        run = set()
    return runs


def _item_lines(text: str, spans: list[Span]) -> list[list[list[int]]]:
    """The runs of two or more list items in a row, each item its marked sentence and the sentences after it on
    its line ("- a convenção foi assinada em maio/2000 mas só foi promulgada no fim de 2001. A partir de quando ela
    vale p/ o IR retido").
    """
    runs: list[list[list[int]]] = []
    run: list[list[int]] = []
    for k, span in enumerate([*spans, Span(len(text), len(text), "")]):
        if _ITEM.match(span.text):
            run.append([k])
            continue
        if run and span.text and "\n" not in text[spans[k - 1].end:span.start]:
            run[-1].append(k)
            continue
        if len(run) >= 2:
            runs.append(run)
        run = []
    return runs


def _unmarked_items(text: str, spans: list[Span], asked: list[Span]) -> list[Span]:
    """In a ticket typed with no question mark, each item of a list that one of its items asks in (every list,
    when nothing else asks): the item's last sentence, where its question is."""
    out = []
    for run in _item_lines(text, spans):
        if asked and not any(spans[k] in asked for item in run for k in item):
            continue
        out += [spans[item[-1]] for item in run if not any(spans[k] in asked for k in item)]
    return out


def _items_after_a_question(text: str, spans: list[Span], asked: list[Span]) -> list[Span]:
    """The items of a list, each on its own line, typed without the question mark an item before them in the list
    has ("1. si sigo siendo residente en España, ¿Brasil me puede cobrar?" / "2. y tengo que cotizar al INSS allí o
    sigo con la Seguridad Social española")."""
    out = []
    for run in _item_runs(spans):
        first = min((k for k in run if spans[k].asks and spans[k] in asked), default=None)
        out += [spans[k] for k in sorted(run) if first is not None and k > first and not spans[k].asks and
                text[spans[k].end:].lstrip(" \t")[:1] in ("\n", "") and not _asked_under(spans, k + 1)]
    return out


_NUMBERED = re.compile(rf"^{_QUOTED}{_NUMBER_MARK}\s+", re.IGNORECASE)
# A question that ends on its alternatives, its mark left off ("soy residente de españa o de brasil", "…taxed in
# Japan or in Portugal"); Spanish "o" only before a preposition (Portuguese "o" is the article)
_ALTERNATIVES_END = re.compile(r"\s(?:ou|or|o(?=\s+(?:de|en|a|al)\s))\s+"
                               r"(?:(?:de|do|da|em|en|in|no|na|el|la|the|a|al)\s+){0,2}[^\W\d_]+\W*$", re.IGNORECASE)


def _items_before_a_question(spans: list[Span], asked: list[Span]) -> list[Span]:
    """The numbered items of a list before its first question that ask too, their mark left off: on their
    alternatives, or in the words that ask what one pays ("1) con todo esto soy residente de españa o de brasil
    2) el sueldo … tributa solo en españa?"); not the facts a list gives first ("1) Moro em Lisboa. 2) Quem…?")."""
    out = []
    for run in _item_runs(spans):
        first = min((k for k in run if spans[k] in asked), default=None)
        out += [spans[k] for k in sorted(run) if first is not None and k < first and _NUMBERED.match(spans[k].text)
                and (_ALTERNATIVES_END.search(fold(spans[k].text)) or _asks_what_is_paid(spans[k]))]
    return out


def _run_on(text: str, before: Span, span: Span) -> bool:
    """`span` was cut from `before` only by the capital that opens it, on the same line ("…pelo acordo Brasil-Espanha
    E rola IOF nessa remessa também"): the question mark between them was left off."""
    gap = text[before.end:span.start]
    return not gap.strip() and "\n" not in gap and (before.text[-1:].isalnum() or before.text[-1:] == "%")


_CONNECTIVE = re.compile(r"^(?:E|Y|And|Also|Além|Ademais|Además|Tamb[ée]m|Second|Secondly|Segundo)\b")


def _run_on_questions(text: str, spans: list[Span], asked: list[Span]) -> list[Span]:
    """The sentences that run on from a question without its mark, each a question too ("Can Japan keep taxing it
    Also, someone said NHR pensioners pay 10% — is that right"); not small talk ("E obrigado"). In a ticket with no
    question mark at all, a question that runs on with "E", "And", "Also" or an interrogative was asked after
    another one, too ("Duas dúvidas dele: que retenção pode Portugal fazer… E temos de entregar o modelo 21-RFI…",
    "A convenção não impede isso Devo cobrar IVA a esse cliente")."""
    small_talk = asking_words().is_small_talk
    unmarked = not any(s.asks for s in spans)
    out: list[Span] = []
    for before, span in zip(spans, spans[1:]):
        if not _run_on(text, before, span):
            continue
        if (before in asked or before in out) and span not in asked and not small_talk(tokenize(span.text)):
            out.append(span)
        elif unmarked and span in asked and before not in asked and \
                (_CONNECTIVE.match(span.text) or opens_question(span.text)) and not small_talk(tokenize(before.text)):
            out.append(before)
    return out


# A signature under a closing ("Obrigada,\nInês Carvalho\ngabinete de contabilidade, Leiria"): lines this short
SIGNATURE_WORDS = 5


def _signature_start(text: str, spans: list[Span]) -> int:
    """Where the closing and the signature lines under it start among `spans` (len(spans) if the ticket ends
    otherwise): a ticket with no question is not asking "Kenji Morimoto"."""
    small_talk = asking_words().is_small_talk
    k = len(spans)
    while k > 0 and len([t for t in tokenize(spans[k - 1].text) if t.is_word]) <= SIGNATURE_WORDS and \
            text[spans[k - 1].end:].lstrip(" \t")[:1] in ("\n", "") and not small_talk(tokenize(spans[k - 1].text)):
        k -= 1
    closing = k
    while closing > 0 and small_talk(tokenize(spans[closing - 1].text)):
        closing -= 1
    return closing if closing < k or k == len(spans) else len(spans)


def _in_header(text: str, span: Span) -> bool:
    """The sentence is (the end of) a header line ("Subject: FW: Nagoya secondment – which country taxes Tiago?")."""
    return bool(_HEADER.match(text[text.rfind("\n", 0, span.start) + 1:span.end]))


# What a pointer's words go on to ask, when they ask it themselves ("podem responder se o Brasil tributa…?")
_COMPLEMENTS = {"se", "si", "if", "whether", "what", "which", "who", "how", "when", "where", "qual", "quais", "quem",
                "como", "quanto", "quando", "onde", "cual", "cuales", "cuanto", "cuando", "donde", "quien"}


def _points(span: Span) -> bool:
    """The sentence points at the ticket's questions or hands them on, and asks nothing of its own."""
    words = [t for t in tokenize(span.text) if t.is_word]
    return any(m.end >= len(words) or words[m.end].norm not in _COMPLEMENTS
               for m in asking_words().pointers.find(words))


def asking(text: str, last_if_none: bool = True) -> list[Span]:
    """The sentences that ask, in order: a question mark (not small talk: "tudo bem?"), a request phrase, or an
    item of a list of questions, but not a subject line when the body asks; failing those, the sentences that
    open with an interrogative ("Quem tributa a pensão."); failing those, the last sentence (or none, for
    retrieval's focus: `last_if_none=False`)."""
    spans = sentences(text)
    listed = _listed_questions(spans)
    small_talk = asking_words().is_small_talk
    asked = [s for k, s in enumerate(spans)
             if (s.asks and not small_talk(tokenize(s.text))) or k in listed or _tagged(s) or
             (_requests(s) and not small_talk(tokenize(s.text)) and
              not _introduces_facts(s, spans[k + 1] if k + 1 < len(spans) else None) and
              not _labelled_story(s, spans[k + 1:]))]
    # "can you answer the below for our CFO?" before the questions it points at asks nothing itself
    # (before them or, handing the ticket on, after them: "Can someone answer Sofia by Friday?")
    asked = [s for k, s in enumerate(asked) if len(asked) == 1 or not _points(s)]
    if not any(s.asks for s in spans):
        # typed with no question mark at all: what opens as a question or asks what a State may tax, and the
        # other items of a list one of them opens (every item of a list, when nothing else asks)
        unmarked = asking_words().unmarked
        # a list of questions a request introduces holds the questions: a sentence of the story before it that
        # opens like one ("Continuo a trabalhar para a mesma empresa…" before "Gostaria de saber três coisas:") states
        list_start = min(listed, default=0)
        asked = [s for k, s in enumerate(spans)
                 if s in asked or (opens_question(s.text) and k >= list_start) or _asks_unmarked(s) or
                 (not _HEADER.match(s.text) and (unmarked.find(tokenize(s.text)) or _asks_after_colon(s)))] or asked
        items = _unmarked_items(text, spans, asked)
        asked = [s for s in spans if s in asked or s in items]
    asked = asked or [s for s in spans if opens_question(s.text)]
    unmarked_items = _items_after_a_question(text, spans, asked) + _run_on_questions(text, spans, asked) + \
        _items_before_a_question(spans, asked)
    asked = [s for s in spans if s in asked or s in unmarked_items]
    asked = [*asked, *_unclosed_follow_ups(text, spans, asked)]
    # a subject or title that asks restates the body's question ("Assunto: Dividendos – quem tributa?")
    asked = [s for s in asked if not _in_header(text, s)] or asked
    if asked or not last_if_none:
        return asked
    # the last sentence that says something, not the closing under it ("Atenciosamente, Departamento Fiscal")
    said = [s for s in spans[:_signature_start(text, spans)] if not small_talk(tokenize(s.text))]
    last = (said or spans)[-1:]
    before = _run_on_questions(text, spans, last)     # "…com o Brasil E temos de entregar o modelo 21-RFI…"
    return [s for s in spans if s in last or s in before] or [Span(0, len(text), text)]
