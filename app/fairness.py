"""Provably fair shuffles: commit to the seed at creation, reveal it after the end.

Each table draws a 256-bit secret. Its seed is derived from the secret, and the
SHA-256 of the secret is published from the start as the table's commitment.
After the game the secret is revealed (GET /replay), so anyone can check that
the seed was fixed before the first card was dealt and replay the game from it:

    python -m app.verify https://partida.example/api/v1/tables/<id>
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 63


def new_secret() -> str:
    return secrets.token_hex(32)


def commitment(secret: str) -> str:
    """What is published before the game: sha256 of the secret, hex."""
    return hashlib.sha256(("partida-seed-commitment:" + secret).encode()).hexdigest()


def seed_from_secret(secret: str) -> int:
    """The table's seed: the first 63 bits of sha256(secret) (a different hash domain)."""
    digest = hashlib.sha256(("partida-seed:" + secret).encode()).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << SEED_BITS) - 1)
