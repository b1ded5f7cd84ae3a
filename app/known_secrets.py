"""The secret values this process knows, so that no log line carries one, whatever its key.

Whatever makes or reads a secret hands the value to ``remember``: player tokens when made
and when a client proves one, invite codes and seed secrets when a table row is made or
loaded (app.db.models: columns marked secret), the admin token, access code and URL
passwords when the settings are read. A secret another instance made reaches this one
through the database, and is remembered when its row is loaded. The log formatter
(app.logging) masks every remembered value wherever it appears in a line.

Wrong tokens and codes are never remembered (a client could flood the store with them);
key-based redaction in app.logging covers those where clients put them. Nothing is masked
by its shape alone: a seed secret's (64 hex digits) is also that of its public commitment
and of every SHA-256 digest.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter, OrderedDict
from urllib.parse import quote

#: Values per kind kept at most: the least recently remembered are forgotten first.
MOST_VALUES = 100_000
MOST_LASTING = 1_000
#: Shorter values are not secrets this server makes (its shortest, an invite code, has 12
#: characters); masking every occurrence of a short word would mangle the logs.
SHORTEST = 8
# The alphabet of secrets.token_urlsafe and token_hex, which make nearly every secret: such
# a value lies inside one run of these characters in any line.
_PLAIN = re.compile(r"[A-Za-z0-9_-]+")
_RUNS = re.compile(rf"[A-Za-z0-9_-]{{{SHORTEST},}}")


class KnownSecrets:
    """A bounded set of secret values, and the masking of them in text.

    A line is cut into runs of the plain alphabet (``_PLAIN``); a run that is a remembered
    value is one lookup, and a value glued to other characters in a run (``%3D`` before it)
    is found by looking up the run's slices of each length plain values have (a handful:
    12, 32, 64...), however many values are remembered. The few other values (a host's
    admin token or password may hold any character) are found by one regular expression,
    rebuilt when they change."""

    def __init__(self, most: int = MOST_VALUES, most_lasting: int = MOST_LASTING) -> None:
        self._most, self._most_lasting = most, most_lasting
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._lasting: OrderedDict[str, None] = OrderedDict()
        self._lengths: Counter[int] = Counter()  # of the plain values, longest first below
        self._longest_first: tuple[int, ...] = ()
        self._odd: set[str] = set()
        self._odd_pattern: re.Pattern[str] | None = None
        # Lines are logged from other threads (the SQLite driver's, the server's executor).
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._recent.keys() | self._lasting.keys())

    def __contains__(self, value: object) -> bool:
        return value in self._recent or value in self._lasting

    def remember(self, value: str, *, lasting: bool = False) -> None:
        """Know ``value`` (and its percent- and JSON-escaped forms) as a secret. Lasting
        values (the settings' few) are kept apart, never pushed out by players' and tables'."""
        if len(value) < SHORTEST:
            return
        with self._lock:
            for form in {value, quote(value, safe=""), json.dumps(value)[1:-1]}:
                self._keep(form, self._lasting if lasting else self._recent)

    def _keep(self, value: str, store: OrderedDict[str, None]) -> None:
        if value not in self:
            self._count(value, +1)
        store[value] = None
        store.move_to_end(value)
        while len(store) > (self._most_lasting if store is self._lasting else self._most):
            forgotten = store.popitem(last=False)[0]
            if forgotten not in self:
                self._count(forgotten, -1)

    def _count(self, value: str, change: int) -> None:
        if _PLAIN.fullmatch(value):
            self._lengths[len(value)] += change
            self._lengths = +self._lengths  # drops the lengths no value has any more
            self._longest_first = tuple(sorted(self._lengths, reverse=True))
            return
        if change > 0:
            self._odd.add(value)
        else:
            self._odd.discard(value)
        self._odd_pattern = None

    def mask(self, text: str, mask: str) -> str:
        """``text`` with every remembered value in it replaced by ``mask``."""
        if len(text) < SHORTEST:
            return text
        with self._lock:
            if self._odd:
                text = self._odd_regex().sub(mask, text)
            if self._lengths:
                text = _RUNS.sub(lambda run: self._mask_run(run.group(), mask), text)
        return text

    def _odd_regex(self) -> re.Pattern[str]:
        if self._odd_pattern is None:
            longest_first = sorted(self._odd, key=len, reverse=True)
            self._odd_pattern = re.compile("|".join(map(re.escape, longest_first)))
        return self._odd_pattern

    def _mask_run(self, run: str, mask: str) -> str:
        """``run`` (of the plain alphabet) with the values in it masked."""
        if run in self:
            return mask
        parts: list[str] = []
        done = at = 0
        while at <= len(run) - SHORTEST:
            fits = (n for n in self._longest_first if at + n <= len(run))
            found = next((n for n in fits if run[at : at + n] in self), 0)
            if found:
                parts += [run[done:at], mask]
                at = done = at + found
            else:
                at += 1
        return "".join(parts) + run[done:] if parts else run


KNOWN = KnownSecrets()


def remember(value: str, *, lasting: bool = False) -> str:
    """Know ``value`` as a secret from now on (see KnownSecrets.remember); returns it, so that
    a secret is remembered where it is made: ``token = remember(secrets.token_urlsafe(24))``."""
    KNOWN.remember(value, lasting=lasting)
    return value
