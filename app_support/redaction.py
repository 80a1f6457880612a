"""Taxpayer identifiers, phone numbers, e-mails and names are removed before any text is stored or logged.

Identifiers are found by shape and kept only when python-stdnum accepts their check digits (PT NIF/NIPC,
BR CPF/CNPJ, ES DNI/NIE/CIF, JP My Number, IBAN) or their own check digit does (PT NISS); phone numbers are
whatever Google's libphonenumber (`phonenumbers`) finds valid for Portugal, Spain, Brazil or Japan, in any
common writing, or for any country when written with "+". Passports have no check digit in the printed
number: PT/BR (two letters, six digits), ES (three letters, six digits) and JP (two letters, seven digits)
shapes in capitals are taken as passports, any case after the word "passaporte/pasaporte/passport". Names
are taken after a self-introduction ("chamo-me", "me llamo", "my name is", "Nome:") or a sign-off. E-mails
also when written "joao [at] gmail [dot] com" or "joao arroba gmail ponto com". Ordinary numbers in tax
questions ("30%", "183 dias", "2024-01-01", "art. 10(2)", "EUR 1.000.000") fail those checks or sit next
to a currency, and are kept.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

import phonenumbers
from stdnum import iban
from stdnum.br import cnpj, cpf
from stdnum.es import cif, dni, nie
from stdnum.jp import in_ as jp_individual_number
from stdnum.pt import nif

PHONE_REGIONS = ("PT", "ES", "BR", "JP")

_L = r"(?<![\d])(?<!\d[.,/-])"               # not inside a longer number
_R = r"(?!\d)(?![.,/-]\d)"
_LR_WORD = r"(?![\w])"
_CURRENCY = re.compile(r"(?:€|\$|£|¥|R\$|\b(?:EUR|USD|BRL|JPY|GBP|euros?|reais|real|d[oó]lares|dollars?|ienes|"
                       r"yen|mil|milh(?:ão|ões)|millones|million))", re.IGNORECASE)
_THOUSANDS = re.compile(r"\d{1,3}([ .,])\d{3}(?:\1\d{3}){2,}")   # "1 234 567 890": an amount, not a phone


@dataclass(frozen=True)
class Finding:
    start: int
    end: int
    label: str


@dataclass(frozen=True)
class IdShape:
    label: str
    pattern: "re.Pattern[str]"
    valid: Callable[[str], bool]
    amount_like: bool                         # bare digits: skipped next to a currency


def _shape(label: str, body: str, valid: Callable[[str], bool], amount_like: bool = True,
           right: str = _R) -> IdShape:
    return IdShape(label, re.compile(_L + "(?:" + body + ")" + right, re.IGNORECASE), valid, amount_like)


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_AT = r"(?:\s*[\[({<]\s*(?:at|arroba)\s*[\])}>]\s*|\s+(?:arroba|at)\s+|\s*@\s*)"
_DOT = r"(?:\s*[\[({<]\s*(?:dot|ponto|punto)\s*[\])}>]\s*|\s+(?:dot|ponto|punto)\s+|\.)"
_TLD = r"(?:com|net|org|edu|gov|info|pt|br|es|jp|eu|uk|de|fr|it|us|io|co)"
_OBFUSCATED_EMAIL = re.compile(rf"(?<![\w.+-])[\w.+-]+{_AT}[\w-]+(?:{_DOT}[\w-]+)*{_DOT}{_TLD}(?![\w])", re.IGNORECASE)


def _niss_valid(number: str) -> bool:
    """Portuguese social security number: 11 digits, the last = 9 - (weighted sum mod 10)."""
    digits = [int(c) for c in number if c.isdigit()]
    if len(digits) != 11 or digits[0] not in (1, 2):
        return False
    total = sum(d * w for d, w in zip(digits, (29, 23, 19, 17, 13, 11, 7, 5, 3, 2)))
    return digits[10] == 9 - total % 10


_CURRENCY_CODES = {"EUR", "USD", "BRL", "JPY", "GBP", "CHF", "ART", "DL"}
_PASSPORT_WORD = (r"(?:passaporte|pasaporte|passport|passaport)s?\s*"
                  r"(?:n\.?\s*[º°o]?\.?|no\.?|number|n[úu]mero|#)?\s*:?\s*")
_PASSPORT_SHAPE = r"[A-Z]{2}\d{6}|[A-Z]{3}\d{6}|[A-Z]{2}\d{7}|[A-Z]\d{6}"
_PASSPORT_NAMED = re.compile(rf"(?i:{_PASSPORT_WORD})(?P<id>(?i:{_PASSPORT_SHAPE}))(?![\w])")
_PASSPORT_BARE = re.compile(r"(?<![\w/-])(?P<id>[A-Z]{2}\d{6,7}|[A-Z]{3}\d{6})(?![\w])")


def _passports(text: str) -> list[Finding]:
    found = [Finding(m.start("id"), m.end("id"), "PASSAPORTE") for m in _PASSPORT_NAMED.finditer(text)]
    for m in _PASSPORT_BARE.finditer(text):
        letters = m.group("id").rstrip("0123456789")
        if letters not in _CURRENCY_CODES:
            found.append(Finding(m.start("id"), m.end("id"), "PASSAPORTE"))
    return found


# A name: capitalised words, with the particles names carry between them ("Maria da Silva", "José de la Cruz").
_NAME_WORD = r"[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+)?"
_NAME = rf"{_NAME_WORD}(?:\s+(?:(?:da|de|do|das|dos|del|de\s+la|la|y|e|van|von)\s+)?{_NAME_WORD}){{0,4}}"
_INTRODUCTION = (r"chamo-me|me\s+chamo|(?:o\s+)?meu\s+nome\s+(?:é|e)|(?:eu\s+)?sou\s+(?:o|a)|aqui\s+(?:é|e)\s+(?:o|a)"
                 r"|me\s+llamo|mi\s+nombre\s+es|soy|my\s+name\s+is|my\s+name's")
_LABEL = r"nome(?:\s+completo)?|nombre(?:\s+completo)?|(?:full\s+)?name|titular|contribuinte|cliente|client"
_SIGN_OFF = (r"atenciosamente|(?:melhores\s+)?cumprimentos|obrigad[oa]|abraços|(?:un\s+)?saludos?|atentamente"
             r"|cordialmente|gracias|(?:best\s+|kind\s+)?regards|sincerely|thanks|thank\s+you")
_NAMED = re.compile(
    rf"(?<![\w-])(?:(?i:{_INTRODUCTION})\s+|(?i:{_LABEL})\s*:\s*|(?i:{_SIGN_OFF})\s*[,!.]?\s*\n\s*)"
    rf"(?P<name>{_NAME})")
# capitalised words after those phrases that are not names ("Sou o Residente", "Soy Español")
_NOT_NAMES = {"portugal", "brasil", "brazil", "espanha", "españa", "spain", "japão", "japón", "japan", "residente",
              "resident", "português", "portuguesa", "brasileiro", "brasileira", "español", "española", "espanhol",
              "espanhola", "japonês", "japonesa", "japonés", "portuguese", "brazilian", "spanish", "japanese",
              "sr", "sra", "dr", "dra", "senhor", "senhora", "señor", "señora", "mr", "mrs", "ms"}


def _names(text: str) -> list[Finding]:
    found = []
    for m in _NAMED.finditer(text):
        if m.group("name").split()[0].lower() not in _NOT_NAMES:
            found.append(Finding(m.start("name"), m.end("name"), "NOME"))
    return found
_IBAN = re.compile(r"(?<![\w])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]){10,32}(?![\w])", re.IGNORECASE)

# From the most specific shape to the least; an earlier finding wins over a later one of the same length.
_IDS: list[IdShape] = [
    _shape("CNPJ", r"\d{2}\.?\d{3}\.?\d{3}/?\d{4}-?\d{2}|\d{2}(?: \d{3}){2} \d{4} \d{2}", cnpj.is_valid),
    _shape("CPF", r"\d{3}([ .]?)\d{3}\1\d{3}[ .-]?\d{2}", cpf.is_valid),
    _shape("NIE", r"[XYZ][ -]?\d{7}[ -]?[A-Z]", nie.is_valid, amount_like=False, right=_LR_WORD),
    _shape("NIF", r"\d{8}[ -]?[A-Z]", dni.is_valid, amount_like=False, right=_LR_WORD),
    _shape("NIF", r"[ABCDEFGHJNPQRSUVW][ -]?\d{7}[0-9A-J]", cif.is_valid, amount_like=False, right=_LR_WORD),
    _shape("NIF", r"(?:PT ?)?\d{3}([ .-]?)\d{3}\1\d{3}", nif.is_valid),
    _shape("MY NUMBER", r"\d{4}([ -]?)\d{4}\1\d{4}", jp_individual_number.is_valid),
    _shape("NISS", r"[12]\d{10}|[12]\d{2}(?:[ .-]\d{4}){2}|[12]\d{3}(?:[ .-]\d{3}){2}[ .-]?\d", _niss_valid),
]


def _near_currency(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 6):start]
    after = text[end:end + 12]
    return bool(re.search(_CURRENCY.pattern + r"\s*$", before, re.IGNORECASE)
                or re.match(r"\s*" + _CURRENCY.pattern, after, re.IGNORECASE))


def _ibans(text: str) -> list[Finding]:
    """The longest run of groups starting at a country code that passes the IBAN check."""
    found = []
    for m in _IBAN.finditer(text):
        candidate = m.group(0)
        for end in range(len(candidate), 14, -1):
            if candidate[end - 1] not in " -" and iban.is_valid(candidate[:end]):
                found.append(Finding(m.start(), m.start() + end, "IBAN"))
                break
    return found


def _identifiers(text: str) -> list[Finding]:
    found = []
    for shape in _IDS:
        for m in shape.pattern.finditer(text):
            if not shape.valid(m.group(0)):
                continue
            if shape.amount_like and _near_currency(text, m.start(), m.end()):
                continue
            found.append(Finding(m.start(), m.end(), shape.label))
    return found


def _phones(text: str) -> list[Finding]:
    found = []
    for region in PHONE_REGIONS:
        for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID):
            if _THOUSANDS.fullmatch(m.raw_string) or _near_currency(text, m.start, m.end):
                continue
            found.append(Finding(m.start, m.end, "TELEFONE"))
    return found


def findings(text: str) -> list[Finding]:
    """Every identifier, phone number, e-mail and name in the text, without overlaps, in text order."""
    candidates = [Finding(m.start(), m.end(), "EMAIL") for m in _EMAIL.finditer(text)]
    candidates += [Finding(m.start(), m.end(), "EMAIL") for m in _OBFUSCATED_EMAIL.finditer(text)]
    candidates += _ibans(text) + _identifiers(text) + _phones(text) + _passports(text) + _names(text)
    kept: list[Finding] = []
    for i in sorted(range(len(candidates)), key=lambda i: (candidates[i].start - candidates[i].end, i)):
        f = candidates[i]                   # longest first; on a tie the earlier (more specific) finder
        if all(f.end <= k.start or f.start >= k.end for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: f.start)


def redact(text: str) -> str:
    """The text with every identifier replaced by a label such as "[NIF]"."""
    if not text:
        return text
    out, pos = [], 0
    for f in findings(text):
        out.append(text[pos:f.start] + f"[{f.label}]")
        pos = f.end
    return "".join(out) + text[pos:]


def redact_data(value: Any) -> Any:
    """Every string inside nested dicts/lists redacted (keys kept), for JSON columns."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redact_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_data(v) for v in value]
    return value


def redacted_json(value: Any) -> str:
    return json.dumps(redact_data(value), ensure_ascii=False, default=str)
