"""A tiny test-only game ("Pick") that exercises every part of the engine protocol.

Never registered in the real catalog. Seats take 1..max_take tokens from a pile in
turn; whoever takes the last token loses. Each take draws a secret bonus card
that only the taker may see (hidden information for the leak tests), revealed
when the game ends. A seat may also `pass_turn` once per game (a second action
type, so the discriminated union has a choice).
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import (
    Event,
    Figure,
    GameInfo,
    GameOver,
    IllegalAction,
    InvalidOptions,
    Locale,
    NotYourTurn,
    Result,
    Rng,
    Seat,
    Transition,
    by_seat,
    random_bot,
    rank_by_score,
)
from app.games.messages import Message, SeatRef


class PickOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pile: int = Field(default=11, ge=3, le=40)
    max_take: int = Field(default=3, ge=1, le=5)


class Take(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["take"] = "take"
    count: int = Field(ge=1, le=5)


class PassTurn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["pass_turn"] = "pass_turn"


PickAction = Annotated[Take | PassTurn, Field(discriminator="type")]


class Took(Event):
    type: Literal["took"] = "took"
    seat: Seat
    count: int
    pile: int


class Passed(Event):
    type: Literal["passed"] = "passed"
    seat: Seat


class BonusDrawn(Event):
    type: Literal["bonus_drawn"] = "bonus_drawn"
    seat: Seat
    bonus: int


PickEvent = Annotated[Took | Passed | BonusDrawn, Field(discriminator="type")]


class PickState(BaseModel):
    n_players: int
    options: PickOptions
    rng: Rng
    pile: int
    turn: Seat
    taken: list[int]
    passed: list[bool]
    bonuses: list[list[int]]
    loser: Seat | None = None


class PickView(BaseModel):
    pile: int
    turn: Seat | None
    taken: list[int]
    passed: list[bool]
    bonus_counts: list[int]
    my_bonuses: list[int] | None
    all_bonuses: list[list[int]] | None
    loser: Seat | None


class PickEngine:
    info = GameInfo(id="pick", title="Pick (test game)", min_players=2, max_players=4)
    Options = PickOptions
    State = PickState
    Action = PickAction
    Event = PickEvent

    @property
    def figures(self) -> dict[str, Any]:
        return {"start": lambda: Figure(self.setup(3, 1, PickOptions()), 0, "a fresh pile")}

    def max_length(self, n_players: int) -> int:
        return 40 + n_players

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        assert isinstance(options, PickOptions)
        if not 2 <= n_players <= 4:
            raise InvalidOptions(f"Pick is for 2 to 4 players, not {n_players}")
        if options.pile <= options.max_take:
            raise InvalidOptions("the pile must hold more tokens than one take")

    def setup(self, n_players: int, seed: int, options: BaseModel) -> PickState:
        assert isinstance(options, PickOptions)
        self.validate_options(options, n_players)
        rng = Rng.from_seed(seed)
        return PickState(
            n_players=n_players, options=options, rng=rng, pile=options.pile,
            turn=rng.below(n_players), taken=[0] * n_players, passed=[False] * n_players,
            bonuses=[[] for _ in range(n_players)],
        )  # fmt: skip

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        # The first seat is drawn in secret from nobody: the pile is public, nothing to announce.
        return Transition(self.setup(n_players, seed, options), [])

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        assert isinstance(state, PickState)
        return frozenset() if state.loser is not None else frozenset({state.turn})

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Take | PassTurn]:
        assert isinstance(state, PickState)
        if seat not in self.to_act(state):
            return []
        moves: list[Take | PassTurn] = [
            Take(count=c) for c in range(1, min(state.options.max_take, state.pile) + 1)
        ]
        if not state.passed[seat]:
            moves.append(PassTurn())
        return moves

    def apply(self, state: BaseModel, seat: Seat, action: BaseModel) -> Transition:
        assert isinstance(state, PickState)
        if state.loser is not None:
            raise GameOver("the game is over")
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")
        s = state.model_copy(deep=True)
        events: list[Event] = []
        if isinstance(action, PassTurn):
            if s.passed[seat]:
                raise IllegalAction("cannot pass: each seat may pass only once per game (Pick §2)")
            s.passed[seat] = True
            events.append(Passed(seat=seat))
        elif isinstance(action, Take):
            if action.count > min(s.options.max_take, s.pile):
                raise IllegalAction(
                    f"cannot take {action.count}: at most {min(s.options.max_take, s.pile)} now (Pick §1)"
                )
            s.pile -= action.count
            s.taken[seat] += action.count
            bonus = s.rng.between(1, 9)
            s.bonuses[seat].append(bonus)
            events.append(Took(seat=seat, count=action.count, pile=s.pile))
            events.append(BonusDrawn(seat=seat, bonus=bonus, visible_to=frozenset({seat})))
            if s.pile == 0:
                s.loser = seat
        else:
            raise IllegalAction(f"unknown action {action!r}")
        s.turn = (seat + 1) % s.n_players
        return Transition(s, events)

    def view(self, state: BaseModel, seat: Seat | None) -> PickView:
        assert isinstance(state, PickState)
        over = state.loser is not None
        return PickView(
            pile=state.pile, turn=None if over else state.turn, taken=state.taken,
            passed=state.passed, bonus_counts=[len(b) for b in state.bonuses],
            my_bonuses=list(state.bonuses[seat]) if seat is not None else None,
            all_bonuses=[list(b) for b in state.bonuses] if over else None, loser=state.loser,
        )  # fmt: skip

    def view_json(
        self, state: BaseModel, seat: Seat | None, parts: dict[Any, Any] | None = None
    ) -> dict[str, Any]:
        return self.view(state, seat).model_dump(mode="json")

    def result(self, state: BaseModel) -> Result | None:
        assert isinstance(state, PickState)
        if state.loser is None:
            return None
        scores = {s: (0 if s == state.loser else state.taken[s]) for s in range(state.n_players)}
        bonus = {s: sum(state.bonuses[s]) for s in scores}
        ranking, places = rank_by_score(scores, {s: (bonus[s],) for s in scores})
        return Result(
            scores=scores,
            ranking=ranking,
            places=places,
            tiebreak="sum of bonus cards",
            details={"bonus": bonus},
        )

    def bot(
        self,
        view: BaseModel,
        legal_actions: list[BaseModel],
        rng: random.Random,
        level: str = "normal",
    ) -> BaseModel:
        assert isinstance(view, PickView)
        if level == "random":
            return random_bot(legal_actions, rng)  # type: ignore[no-any-return]
        for action in legal_actions:
            if isinstance(action, Take) and (view.pile - action.count) % 4 == 1:
                return action
        return legal_actions[0]

    def undoable(self, state: BaseModel, seat: Seat, action: BaseModel) -> bool:
        # A take draws a secret bonus card; passing reveals nothing.
        return isinstance(action, PassTurn)

    def message(self, item: BaseModel) -> Message:
        # Pick has no catalogue in static/i18n: the browser, not knowing these keys, shows
        # the server's text (describe) instead.
        if isinstance(item, Result):
            return Message("pick.result")
        fields = item.model_dump(exclude={"type", "visible_to"})
        params = {k: SeatRef(v) if k == "seat" else v for k, v in fields.items()}
        return Message(f"pick.{getattr(item, 'type', 'item')}", params)

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        if isinstance(item, Result):
            return self._ties(item, locale)
        if isinstance(item, Take):
            return f"take {item.count}" if locale == "en" else f"coge {item.count}"
        if isinstance(item, Took):
            if locale == "es":
                return f"El asiento {item.seat + 1} coge {item.count}; quedan {item.pile}."
            return f"Seat {item.seat + 1} takes {item.count}; {item.pile} left."
        if isinstance(item, PassTurn):
            return "pass" if locale == "en" else "pasa"
        if isinstance(item, Passed):
            n = item.seat + 1
            return f"Seat {n} passes." if locale == "en" else f"El asiento {n} pasa."
        if isinstance(item, BonusDrawn):
            if locale == "es":
                return f"El asiento {item.seat + 1} roba una carta de bonificación de {item.bonus}."
            return f"Seat {item.seat + 1} draws a bonus card of {item.bonus}."
        raise TypeError(f"Pick has no line for {item!r}")

    def _ties(self, result: Result, locale: Locale) -> str:
        """Each tie on tokens and the bonus sums that settle it (seats from 1)."""
        bonus = by_seat(result.details.get("bonus", {}))
        lines = []
        for score in sorted(set(result.scores.values()), reverse=True):
            tied = [s for s in result.ranking if result.scores[s] == score]
            if len(tied) < 2:
                continue
            sums = ", ".join(f"{s + 1}: {bonus.get(s, 0)}" for s in tied)
            if locale == "es":
                lines.append(
                    f"Empate a {score} fichas: desempata la suma de las cartas de bonificación "
                    f"(asientos {sums})."
                )
            else:
                lines.append(f"Tie on {score} tokens: the bonus cards' sums decide (seats {sums}).")
        return "\n".join(lines)


PICK = PickEngine()
