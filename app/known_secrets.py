"""The secret values this process knows, so that no log line carries one, whatever its key.

Whatever makes or reads a secret hands the value to ``remember``: player tokens when made
and when a client proves one, invite codes and seed secrets when a table row is made or
loaded (app.db.models: columns marked secret), the admin token, access code and URL
passwords when the settings are read. A secret another instance made reaches this one
through the database, and is remembered when its row is loaded. The log formatter
(app.logging) masks every remembered value wherever it appears in a line.

Wrong tokens and codes are never remembered (a client could flood the store with them);
key-based redaction in app.logging covers those where clients put them.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
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

    Plain values (see ``_PLAIN``) are indexed by their first ``SHORTEST`` characters: a line
    is cut into runs of their alphabet, and only runs long enough are looked up, however
    many values are remembered. The few others (a host's admin token or password may hold
    any character) are found by one regular expression, rebuilt when they change."""

    def __init__(self, most: int = MOST_VALUES, most_lasting: int = MOST_LASTING) -> None:
        self._most, self._most_lasting = most, most_lasting
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._lasting: OrderedDict[str, None] = OrderedDict()
        self._by_start: dict[str, set[str]] = {}
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
        store[value] = None
        store.move_to_end(value)
        if _PLAIN.fullmatch(value):
            self._by_start.setdefault(value[:SHORTEST], set()).add(value)
        elif value not in self._odd:
            self._odd.add(value)
            self._odd_pattern = None
        while len(store) > (self._most_lasting if store is self._lasting else self._most):
            self._forget(store.popitem(last=False)[0])

    def _forget(self, value: str) -> None:
        if value in self._recent or value in self._lasting:
            return
        if value in self._odd:
            self._odd.discard(value)
            self._odd_pattern = None
            return
        starting = self._by_start[value[:SHORTEST]]
        starting.discard(value)
        if not starting:
            del self._by_start[value[:SHORTEST]]

    def mask(self, text: str, mask: str) -> str:
        """``text`` with every remembered value in it replaced by ``mask``."""
        if len(text) < SHORTEST:
            return text
        with self._lock:
            if self._odd:
                text = self._odd_regex().sub(mask, text)
            if self._by_start:
                text = _RUNS.sub(lambda run: self._mask_run(run.group(), mask), text)
        return text

    def _odd_regex(self) -> re.Pattern[str]:
        if self._odd_pattern is None:
            longest_first = sorted(self._odd, key=len, reverse=True)
            self._odd_pattern = re.compile("|".join(map(re.escape, longest_first)))
        return self._odd_pattern

    def _mask_run(self, run: str, mask: str) -> str:
        """``run`` (of the plain alphabet) with the values in it masked: usually the whole
        run is one value or none; a value glued to other characters is found too."""
        if run in self._recent or run in self._lasting:
            return mask
        parts: list[str] = []
        done = at = 0
        while at <= len(run) - SHORTEST:
            found = self._longest_at(run, at)
            if found:
                parts += [run[done:at], mask]
                at = done = at + found
            else:
                at += 1
        return "".join(parts) + run[done:] if parts else run

    def _longest_at(self, text: str, at: int) -> int:
        values = self._by_start.get(text[at : at + SHORTEST])
        if not values:
            return 0
        return max((len(v) for v in values if text.startswith(v, at)), default=0)


KNOWN = KnownSecrets()


def remember(value: str, *, lasting: bool = False) -> str:
    """Know ``value`` as a secret from now on (see KnownSecrets.remember); returns it, so that
    a secret is remembered where it is made: ``token = remember(secrets.token_urlsafe(24))``."""
    KNOWN.remember(value, lasting=lasting)
    return value
