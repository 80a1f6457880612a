"""The conversation of one browser session: turns, each with its versions (a follow-up replaces the answer
it completes and keeps the previous one), kept in the history store and recomputed after a reload.

The session is named by `?sid=` in the page URL, so a reload finds its conversation again."""
from __future__ import annotations

import dataclasses
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from app_support.database import StoreError
from app_support.history import StoredVersion
from app_support.resources import assistant, history_store
from assistant.answer import Answer

log = logging.getLogger("treaty_app")
SID = "sid"


@dataclass(frozen=True)
class Version:
    question: str
    facts: dict[str, Any]
    shown: str
    answer: Answer


@dataclass
class Turn:
    """One question of the conversation; its last version is the one shown."""
    id: str
    versions: list[Version] = field(default_factory=list)
    feedback: dict[int, int] = field(default_factory=dict)          # version index -> +1 / -1
    feedback_keys: dict[int, str] = field(default_factory=dict)     # version index -> idempotency key

    @property
    def current(self) -> Version:
        return self.versions[-1]


@dataclass(frozen=True)
class Pending:
    """A question waiting to be answered: new (turn None) or a follow-up of an existing turn."""
    question: str
    facts: dict[str, Any]
    shown: str
    turn: str | None = None


def session_id() -> str:
    """This browser session's id, kept in the URL so a reload finds the conversation."""
    sid = st.query_params.get(SID) or st.session_state.get(SID)
    if not sid or not str(sid).isalnum():
        sid = uuid.uuid4().hex[:16]
    st.session_state[SID] = sid
    if st.query_params.get(SID) != sid:
        st.query_params[SID] = sid
    return sid


def deterministic_answer(question: str, facts: dict[str, Any]) -> Answer:
    """The answer without the model: the card and everything around it (what a reload or a link shows)."""
    events = assistant().stream(question, extra_facts=facts or None)
    try:
        for event in events:
            if event.kind in ("card", "final"):
                return event.answer
    finally:
        events.close()
    raise RuntimeError("no answer")


def turns() -> list[Turn]:
    """The session's turns, loaded from the store (and recomputed) the first time in a browser session."""
    if "turns" not in st.session_state:
        st.session_state.turns = _restore(session_id())
    return st.session_state.turns


def _restore(sid: str) -> list[Turn]:
    try:
        stored = history_store().load(sid)
    except StoreError as exc:
        log.warning("histórico indisponível: %s", exc)
        return []
    restored = []
    for versions in stored:
        turn = Turn(versions[0].turn)
        for v in versions:
            turn.versions.append(_version(v))
        restored.append(turn)
    return restored


def _version(v: StoredVersion) -> Version:
    answer = deterministic_answer(v.question, v.facts)
    if v.explanation:
        answer = dataclasses.replace(answer, explanation=v.explanation)
    return Version(v.question, v.facts, v.shown, answer)


def save(turn: Turn, position: int) -> None:
    """Writes the turn's last version (the model text included once it has arrived)."""
    v = turn.current
    try:
        history_store().save(session_id(), turn.id, len(turn.versions) - 1, position, v.question, v.facts, v.shown,
                             v.answer.explanation)
    except StoreError as exc:
        log.warning("histórico indisponível: %s", exc)


def new_turn() -> Turn:
    return Turn(uuid.uuid4().hex[:8])
