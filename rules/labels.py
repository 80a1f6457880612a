"""Names of topics, units and States in pt/es/en (from the message catalogue), so answers never show codes.

Anything the catalogue does not know comes back as the code itself, never as an error.
"""
from __future__ import annotations

from i18n import LANGUAGES, has, normalise_language, t

__all__ = ["LANGUAGES", "normalise_language", "topic_label", "unit_label", "state_name"]


def topic_label(topic: str, language: str) -> str:
    """Readable name of an income type or topic; the code itself when unknown."""
    key = f"rules.topics.{topic}"
    return t(language, key) if has(key) else str(topic)


def unit_label(unit: str, value: object, language: str) -> str:
    """Unit word agreeing with the value (1 → singular); the code itself when unknown."""
    if not has(f"rules.units.{unit}.one"):
        return str(unit)
    is_one = isinstance(value, (int, float)) and not isinstance(value, bool) and value == 1
    return t(language, f"rules.units.{unit}.{'one' if is_one else 'other'}")


def state_name(code: str, language: str) -> str:
    """Name of a State from its code (any case); the code itself when unknown."""
    key = str(code).strip().upper()
    return t(language, f"rules.states.{key}") if has(f"rules.states.{key}") else key
