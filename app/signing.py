"""Tokens only this deployment issues: HMAC-SHA256 signed, URL-safe, checked in constant time.

The key is the deployment's, not the process's: a token one instance hands out is honoured by
every other and after restarts. It is PARTIDA_SECRET_KEY when the host sets one, else a random
key made by the first instance that needs it and kept in the database (``server_secrets``),
where every instance reads the same one.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ServerSecret
from app.known_secrets import remember

#: The row of ``server_secrets`` that holds the generated key.
KEY_NAME = "signing_key"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


class Signer:
    """Signs payloads for one purpose: a token signed for another purpose (or with another
    key) never verifies here."""

    def __init__(self, key: bytes, purpose: str) -> None:
        self._key = hmac.new(key, purpose.encode(), hashlib.sha256).digest()

    def _mac(self, body: bytes) -> bytes:
        return hmac.new(self._key, body, hashlib.sha256).digest()

    def sign(self, payload: bytes) -> str:
        """``<payload>.<mac>``, both base64url without padding."""
        body = _b64(payload)
        return f"{body}.{_b64(self._mac(body.encode('ascii')))}"

    def unsign(self, token: str) -> bytes | None:
        """The payload of a token this signer made; None for anything else."""
        body, dot, mac = token.rpartition(".")
        if not dot:
            return None
        expected = _b64(self._mac(body.encode("utf-8", "replace"))).encode("ascii")
        if not hmac.compare_digest(expected, mac.encode("utf-8", "replace")):
            return None
        try:  # signed by us, so our own base64url; decoded defensively all the same
            return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            return None


async def deployment_key(
    sessionmaker: async_sessionmaker[AsyncSession], configured: str | None
) -> bytes:
    """PARTIDA_SECRET_KEY, else the key stored in the database (made on first need: when two
    instances start at once, the first insert wins and both read it)."""
    if configured:
        return remember(configured, lasting=True).encode()
    async with sessionmaker() as session:
        stored = await session.scalar(
            select(ServerSecret.value).where(ServerSecret.name == KEY_NAME)
        )
    if stored is None:
        try:
            async with sessionmaker() as session, session.begin():
                session.add(ServerSecret(name=KEY_NAME, value=secrets.token_urlsafe(48)))
        except IntegrityError:
            pass  # another instance stored its key first: that one is the deployment's
        async with sessionmaker() as session:
            stored = await session.scalar(
                select(ServerSecret.value).where(ServerSecret.name == KEY_NAME)
            )
    if stored is None:  # inserted above, by this instance or another: the database lost it
        raise RuntimeError("the deployment's signing key could not be stored or read")
    return remember(stored, lasting=True).encode()


class DeploymentSigner:
    """A :class:`Signer` on the deployment's key, loaded once (at startup) and then kept."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        configured: str | None,
        purpose: str,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._configured = configured
        self._purpose = purpose
        self._signer: Signer | None = None
        self._loading = asyncio.Lock()

    async def signer(self) -> Signer:
        if self._signer is None:
            async with self._loading:
                if self._signer is None:
                    key = await deployment_key(self._sessionmaker, self._configured)
                    self._signer = Signer(key, self._purpose)
        return self._signer
