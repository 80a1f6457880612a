"""Taxpayer identifiers are removed before any question, answer or comment is stored or logged.

Patterns are ordered from the most specific (e-mail, IBAN, formatted CPF/CNPJ) to the least (bare digit
runs), and each bare-digit pattern must stand alone, so ordinary numbers in tax questions ("30%",
"183 dias", "2024", "art. 10(2)") are never touched. A bare 9-digit number is redacted when it passes the
Portuguese NIF check digit or looks like a Portuguese/Spanish phone number; bare 11- and 14-digit numbers
when they pass the CPF/CNPJ check digits.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

_ALONE_L = r"(?<![\w@./-])"
_ALONE_R = r"(?![\w@/-]|[.,]\d)"


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _pt_nif_ok(number: str) -> bool:
    if len(number) != 9 or number[0] not in "123456789":
        return False
    total = sum(int(d) * w for d, w in zip(number[:8], range(9, 1, -1)))
    check = 11 - total % 11
    return int(number[8]) == (0 if check >= 10 else check)


def _cpf_ok(number: str) -> bool:
    if len(number) != 11 or len(set(number)) == 1:
        return False
    for size in (9, 10):
        total = sum(int(d) * w for d, w in zip(number[:size], range(size + 1, 1, -1)))
        if int(number[size]) != (total * 10 % 11) % 10:
            return False
    return True


def _cnpj_ok(number: str) -> bool:
    if len(number) != 14 or len(set(number)) == 1:
        return False
    weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    for size in (12, 13):
        total = sum(int(d) * w for d, w in zip(number[:size], weights[13 - size:]))
        rest = total % 11
        if int(number[size]) != (0 if rest < 2 else 11 - rest):
            return False
    return True


def _iban_ok(text: str) -> bool:
    compact = re.sub(r"\s", "", text).upper()
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


Rule = tuple[str, "re.Pattern[str]", Callable[[str], bool]]

_ALWAYS: Callable[[str], bool] = lambda _m: True  # noqa: E731 - the pattern alone is specific enough

_RULES: list[Rule] = [
    ("EMAIL", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"), _ALWAYS),
    ("IBAN", re.compile(_ALONE_L + r"[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?" + _ALONE_R,
                        re.IGNORECASE), _iban_ok),
    ("CNPJ", re.compile(_ALONE_L + r"\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}" + _ALONE_R), _ALWAYS),
    ("CPF", re.compile(_ALONE_L + r"\d{3}\.\d{3}\.\d{3}-\d{2}" + _ALONE_R), _ALWAYS),
    ("CNPJ", re.compile(_ALONE_L + r"\d{14}" + _ALONE_R), lambda m: _cnpj_ok(m)),
    ("CPF", re.compile(_ALONE_L + r"\d{11}" + _ALONE_R), lambda m: _cpf_ok(m)),
    ("NIF", re.compile(_ALONE_L + r"PT ?\d{9}" + _ALONE_R), _ALWAYS),                            # PT VAT number
    ("NIE", re.compile(_ALONE_L + r"[XYZ]-?\d{7}-?[A-Z]" + _ALONE_R), _ALWAYS),
    ("NIF", re.compile(_ALONE_L + r"\d{8}-?[A-Z]" + _ALONE_R), _ALWAYS),                         # DNI/NIF (ES)
    ("NIF", re.compile(_ALONE_L + r"[ABCDEFGHJNPQRSUVW]-?\d{7}[0-9A-J]" + _ALONE_R), _ALWAYS),   # CIF (ES)
    ("TELEFONE", re.compile(r"(?<![\w+])(?:\+|00)\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?(?:\d[ .-]?){6,12}\d"
                            + _ALONE_R), _ALWAYS),
    ("TELEFONE", re.compile(_ALONE_L + r"\(\d{2}\)[ ]?9?\d{4}-?\d{4}" + _ALONE_R), _ALWAYS),      # BR
    ("NIF", re.compile(_ALONE_L + r"\d{3} ?\d{3} ?\d{3}" + _ALONE_R), lambda m: _pt_nif_ok(_digits(m))),
    ("TELEFONE", re.compile(_ALONE_L + r"[2-9]\d{2} ?\d{3} ?\d{3}" + _ALONE_R), _ALWAYS),            # PT/ES
    ("TELEFONE", re.compile(_ALONE_L + r"[6789]\d{2} \d{2} \d{2} \d{2}" + _ALONE_R), _ALWAYS),       # ES grouping
]


def redact(text: str) -> str:
    """The text with every taxpayer identifier replaced by a label such as "[NIF]"."""
    if not text:
        return text
    for label, pattern, accept in _RULES:
        text = pattern.sub(lambda m, lb=label, ok=accept: f"[{lb}]" if ok(m.group(0)) else m.group(0), text)
    return text


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
