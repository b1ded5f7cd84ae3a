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
import threading
from collections import OrderedDict
from urllib.parse import quote

#: Values per kind kept at most: the least recently remembered are forgotten first.
MOST_VALUES = 100_000
MOST_LASTING = 1_000
#: Shorter values are not secrets this server makes (its shortest, an invite code, has 12
#: characters); masking every occurrence of a short word would mangle the logs.
SHORTEST = 8


class KnownSecrets:
    """A bounded set of secret values, and the masking of them in text.

    The values are indexed by their first ``SHORTEST`` characters, so one pass over a line
    finds every remembered value in it, however many are remembered."""

    def __init__(self, most: int = MOST_VALUES, most_lasting: int = MOST_LASTING) -> None:
        self._most, self._most_lasting = most, most_lasting
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._lasting: OrderedDict[str, None] = OrderedDict()
        self._by_start: dict[str, set[str]] = {}
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
        self._by_start.setdefault(value[:SHORTEST], set()).add(value)
        while len(store) > (self._most_lasting if store is self._lasting else self._most):
            self._forget(store.popitem(last=False)[0])

    def _forget(self, value: str) -> None:
        if value in self._recent or value in self._lasting:
            return
        starting = self._by_start[value[:SHORTEST]]
        starting.discard(value)
        if not starting:
            del self._by_start[value[:SHORTEST]]

    def mask(self, text: str, mask: str) -> str:
        """``text`` with every remembered value in it replaced by ``mask``."""
        if not self._by_start or len(text) < SHORTEST:
            return text
        parts: list[str] = []
        done = at = 0
        with self._lock:
            while at <= len(text) - SHORTEST:
                found = self._longest_at(text, at)
                if found:
                    parts += [text[done:at], mask]
                    at = done = at + found
                else:
                    at += 1
        return "".join(parts) + text[done:] if parts else text

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
