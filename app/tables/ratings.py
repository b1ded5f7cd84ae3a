"""Per-game ratings (openskill's Plackett-Luce, which handles 1-5 players and shared places)
and the player page: finished games, results, stats.

A finished table is rated once (the `rated` flag is set in the same transaction
as the rating updates); tables finished while the process was down are rated
at start-up. Only human seats are rated, and only when two or more humans
played; a game ended by the host or cancelled by its players is not rated
(:func:`unrated_reason`). A player who resigned is rated at the place the result gives the
seat (app.tables.outcomes).
"""

from __future__ import annotations

import logging
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import errors
from app.db.models import GameTable, Player, Rating, Seat, utcnow
from app.tables.service import Catalog, game_engine
from app.tables.snapshot import FINISHED, iso

log = logging.getLogger("partida.ratings")
MODEL = PlackettLuce()


def unrated_reason(result: dict[str, Any] | None, seats: list[Seat]) -> str | None:
    """Why a finished table is not rated, or None when it is: the one rule the rating and
    the player page's counts share, so the ratings table and the leaderboard agree.

    ``fewer_than_two_people``: a rating measures people against people, so a game of one
    person against bots or an automatic opponent (solo Ginkgopolis against Hal) is played
    but not rated. ``ended_by_admin``: the host stopped it; ``cancelled``: its players
    agreed to end it. ``no_result``: nothing to rate.
    """
    if not result or not result.get("places"):
        return "no_result"
    if result.get("ended_by_admin"):
        return "ended_by_admin"
    if result.get("cancelled"):
        return "cancelled"
    # A seat a bot took over still counts as its player's game.
    if sum(1 for s in seats if s.player_id) < 2:
        return "fewer_than_two_people"
    return None


def participants(result: dict[str, Any] | None, seat_count: int) -> int:
    """How many were ranked: the seats and the automatic opponents (``others``), and never
    fewer than the last place given (a result stored before ``others`` existed)."""
    result = result or {}
    places = [int(p) for p in (result.get("places") or {}).values()]
    places += [int(o.get("place", 0)) for o in result.get("others") or []]
    return max([seat_count + len(result.get("others") or []), *places])


def display(mu: float, sigma: float) -> int:
    """The number shown to people: a conservative estimate, scaled like chess ratings."""
    return round((mu - 3 * sigma) * 40 + 1000)


class Ratings:
    """Rates finished tables and reads ratings; needs the database and the game catalogue,
    not the table service (which calls ``rate_table`` when a game ends)."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], games: Catalog) -> None:
        self.sessionmaker = sessionmaker
        self.games = games

    async def rate_table(self, table_id: str) -> bool:
        """Rate a finished table once; errors are logged (a rating never fails a game)."""
        try:
            return await self._rate(table_id)
        except Exception:
            log.exception("rating failed", extra={"table": table_id})
            return False

    async def _rate(self, table_id: str) -> bool:
        async with self.sessionmaker() as session, session.begin():
            # Claiming the table by flipping its flag makes rating exactly-once, across instances too.
            claimed = await session.execute(
                update(GameTable)
                .where(
                    GameTable.id == table_id,
                    GameTable.status == FINISHED,
                    GameTable.rated.is_(False),
                )
                .values(rated=True)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            row = await session.get(GameTable, table_id)
            if row is None or not row.result:
                return False
            if unrated_reason(row.result, list(row.seats)) is not None:
                return False
            places: dict[str, int] = {
                str(k): int(v) for k, v in (row.result.get("places") or {}).items()
            }
            # Each human seat with its player, read once: the seat's number ranks it.
            humans = [(s.seat, player_id) for s in row.seats if (player_id := s.player_id)]
            current = {
                r.player_id: r
                for r in (
                    await session.execute(
                        select(Rating).where(
                            Rating.game == row.game,
                            Rating.player_id.in_([player_id for _, player_id in humans]),
                        )
                    )
                ).scalars()
            }
            teams = []
            for _, player_id in humans:
                known = current.get(player_id)
                rating = MODEL.rating(mu=known.mu, sigma=known.sigma) if known else MODEL.rating()
                teams.append([rating])
            ranks = [float(places.get(str(seat), len(row.seats))) for seat, _ in humans]
            updated = MODEL.rate(teams, ranks=ranks)
            for (_, player_id), (new,) in zip(humans, updated, strict=True):
                known = current.get(player_id)
                if known is None:
                    known = Rating(player_id=player_id, game=row.game, games=0)
                    session.add(known)
                known.mu, known.sigma = float(new.mu), float(new.sigma)
                known.games = (known.games or 0) + 1
                known.updated_at = utcnow()
        return True

    async def rate_pending(self) -> int:
        async with self.sessionmaker() as session:
            ids = (
                (
                    await session.execute(
                        select(GameTable.id).where(
                            GameTable.status == FINISHED, GameTable.rated.is_(False)
                        )
                    )
                )
                .scalars()
                .all()
            )
        done = 0
        for table_id in ids:
            done += await self.rate_table(table_id)
        return done

    async def player_page(
        self, player_id: str, limit: int = 50, viewer_id: str | None = None
    ) -> dict[str, Any]:
        """Ratings, stats and finished games; a private table's game is listed only to the
        players who sat at it (its id is never shown to anybody else; stats count it)."""
        async with self.sessionmaker() as session:
            player = await session.get(Player, player_id)
            if player is None or player.is_blocked:
                raise errors.NotFound(f"no player '{player_id}'", reason="player")
            ratings = (
                (
                    await session.execute(
                        select(Rating).where(Rating.player_id == player_id).order_by(Rating.game)
                    )
                )
                .scalars()
                .all()
            )
            rows = (
                (
                    await session.execute(
                        select(GameTable, Seat.seat)
                        .join(Seat, Seat.table_id == GameTable.id)
                        .where(Seat.player_id == player_id, GameTable.status == FINISHED)
                        .order_by(GameTable.finished_at.desc())
                    )
                )
                .unique()
                .all()
            )
        games: list[dict[str, Any]] = []
        stats: dict[str, dict[str, int]] = {}
        for table, seat in rows:
            result = table.result or {}
            place = (result.get("places") or {}).get(str(seat))
            score = (result.get("scores") or {}).get(str(seat))
            unrated = unrated_reason(result, list(table.seats))
            per_game = stats.setdefault(table.game, {"played": 0, "won": 0, "rated": 0})
            if not result.get("ended_by_admin") and not result.get("cancelled"):
                per_game["played"] += 1
                per_game["won"] += int(place == 1)
            per_game["rated"] += int(unrated is None)
            shown = not table.private or (
                viewer_id is not None and any(s.player_id == viewer_id for s in table.seats)
            )
            if shown and len(games) < limit:
                games.append(
                    {
                        "table_id": table.id,
                        "game": table.game,
                        "finished_at": iso(table.finished_at) if table.finished_at else None,
                        "seat": seat,
                        "place": place,
                        "score": score,
                        "players": participants(result, len(table.seats)),
                        "ended_by_admin": bool(result.get("ended_by_admin")),
                        "cancelled": bool(result.get("cancelled")),
                        "resigned": seat in (result.get("resigned") or ()),
                        "rated": unrated is None,
                        "unrated_reason": unrated,
                    }
                )
        return {
            "id": player.id,
            "name": player.name,
            "ratings": [
                {
                    "game": r.game,
                    "rating": display(r.mu, r.sigma),
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "games": r.games,
                }
                for r in ratings
            ],
            "stats": {
                "played": sum(s["played"] for s in stats.values()),
                "won": sum(s["won"] for s in stats.values()),
                "rated": sum(s["rated"] for s in stats.values()),
                "by_game": stats,
            },
            "games": games,
        }

    async def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        game_engine(self.games, game)
        async with self.sessionmaker() as session:
            rows = (
                await session.execute(
                    select(Rating, Player.name)
                    .join(Player, Player.id == Rating.player_id)
                    .where(Rating.game == game, Player.is_blocked.is_(False))
                )
            ).all()
        best = sorted(rows, key=lambda row: -display(row[0].mu, row[0].sigma))[:limit]
        return [
            {
                "player": {"id": r.player_id, "name": name},
                "rating": display(r.mu, r.sigma),
                "games": r.games,
            }
            for r, name in best
        ]
