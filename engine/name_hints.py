"""The "did you mean" of an error naming a name a world does not have (realm worlds, New World worlds): one slip of
case, accents, spaces or a letter or two from a name it has (``close_names.closest``) gets that name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.protectors.close_names import closest, fold


def did_you_mean(name: Any, known: Iterable[str]) -> str:
    """`` (did you mean 'Gwynedd'?)`` for a name close to one of ``known``; ``""`` when none is close."""
    meant = closest(name, list(known))  # a map's keys are its names
    return f" (did you mean {meant!r}?)" if meant is not None and meant != name else ""


def unknown(what: str, name: Any, known: Iterable[str]) -> str:
    """``unknown realm 'Gwynnedd' (did you mean 'Gwynedd'?)``: the text of an error for a name the world does not
    have."""
    return f"unknown {what} {name!r}{did_you_mean(name, known)}"


def written_twice(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two of ``names`` that differ only in case, accents, spaces or punctuation (``Saint Malo``,
    ``Saint-Malo``; ``Evora``, ``Évora``): one name typed two ways. None when there are none."""
    seen: dict[str, str] = {}
    for name in names:
        key = fold(name)
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None
