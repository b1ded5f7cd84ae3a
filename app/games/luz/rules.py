"""Luz rules: options, state, setup, turn order, legality, apply and result.

Section numbers (§) refer to ``shared/rules/luz.md``.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.games.base import (
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Result,
    Rng,
    RulesError,
    Seat,
    Transition,
    rank_by_score,
)
from app.games.luz.actions import ChooseHighEnd, LuzAction, PlaceBet, PlayCard
from app.games.luz.data import (
    COLOUR_NAMES,
    DEALS,
    HAND_SIZE,
    MAX_BET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TRICKS_PER_DEAL,
    TRUMP_COLOUR,
    Card,
    Colour,
    Side,
    card_colour,
    card_value,
    deck,
    sort_key,
)
from app.games.luz.events import (
    Bet,
    BetPlaced,
    CardPlayed,
    DealRow,
    DealScored,
    DealStarted,
    FirstPlayerPassed,
    GameEnded,
    HandsDealt,
    HandShown,
    HighEndChosen,
    Play,
    Trick,
    TrickWon,
)

Phase: TypeAlias = Literal["choosing_high_end", "betting", "playing", "finished"]

_ACTION_ADAPTER: TypeAdapter[ChooseHighEnd | PlaceBet | PlayCard] = TypeAdapter(LuzAction)


class LuzOptions(BaseModel):
    """Table options (§7); every combination is valid."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    first_player: int | None = Field(
        default=None, description="first player of deal 1; null = drawn with the game RNG"
    )
    trump: Literal["yellow", "none"] = Field(
        default="yellow", description='"none" = seed-literal variant without trump (§11)'
    )
    safety_miss_from: Literal["bet", "nearest"] = Field(
        default="bet", description="how a missed safety bet measures the difference (§5.7)"
    )
    first_player_rotation: Literal["left", "fixed"] = Field(
        default="left", description="first player of the next deal (§5.8)"
    )
    manual_sort_direction: bool = Field(
        default=False, description="sorters choose the high end before betting (§5.2)"
    )
    strict_memory: bool = Field(
        default=False, description="views show only the last completed trick (§6 note 2)"
    )


class LuzState(BaseModel):
    """The full (unredacted) game state. Never sent to a client while the game runs.

    ``hands[s][slot]`` is the card in that slot of seat ``s``'s hand, or None once played;
    slot ids are the canonical sorted positions of the deal (§5.4).
    """

    n_players: int
    options: LuzOptions
    rng: Rng
    phase: Phase
    deal: int
    start_player: Seat
    first_player: Seat
    hands: list[list[Card | None]]
    high_end: list[Side]
    high_end_chosen: list[bool] = Field(description="indexed by sorter seat")
    undealt: list[Card]
    bets: list[Bet | None]
    bets_placed: int = 0
    leader: Seat
    trick: list[Play] = Field(default_factory=list)
    tricks: list[Trick] = Field(default_factory=list)
    tricks_won: list[int]
    scores: list[int]
    history: list[tuple[DealRow, ...]] = Field(default_factory=list)


# --------------------------------------------------------------------------- helpers


def colour_name(colour: str, locale: str = "en") -> str:
    return COLOUR_NAMES["es" if locale == "es" else "en"][colour]


def trump_of(options: LuzOptions) -> Colour | None:
    """The trump colour, or None in the no-trump variant (§5.6, §11)."""
    return TRUMP_COLOUR if options.trump == "yellow" else None


def deal_points(deal: int, bet: int, safety: bool, won: int, miss_from: str = "bet") -> int:
    """Points of one seat for one deal (§5.7).

    >>> deal_points(2, 2, True, 5), deal_points(2, 2, True, 5, "nearest"), deal_points(4, 3, False, 3)
    (-15, -10, 40)
    """
    if not safety:
        return 10 * deal if won == bet else -5 * abs(won - bet)
    if won in (bet, bet + 1):
        return 5 * deal
    if miss_from == "nearest" and won > bet + 1:
        return -5 * (won - bet - 1)
    return -5 * abs(won - bet)


def trick_winner(plays: list[Play] | tuple[Play, ...], trump: Colour | None) -> Seat:
    """The seat that wins a complete trick (§5.6): highest trump, else highest of the led colour.

    >>> p = [Play(seat=2, slot=0, card="G5"), Play(seat=3, slot=0, card="G9"),
    ...      Play(seat=0, slot=0, card="Y2"), Play(seat=1, slot=0, card="G10")]
    >>> trick_winner(p, "Y"), trick_winner(p, None)
    (0, 1)
    """
    led = plays[0].card[0]

    def strength(play: Play) -> tuple[int, int]:
        colour = play.card[0]
        if trump is not None and colour == trump:
            return (2, card_value(play.card))
        if colour == led:
            return (1, card_value(play.card))
        return (0, 0)  # off-colour, not trump: can never win

    return max(plays, key=strength).seat


def hand_colours(hand: list[Card | None]) -> set[str]:
    return {c[0] for c in hand if c is not None}


def current_bettor(state: LuzState) -> Seat:
    return (state.first_player + state.bets_placed) % state.n_players


def current_player(state: LuzState) -> Seat:
    return (state.leader + len(state.trick)) % state.n_players


def trick_number(state: LuzState) -> int:
    return len(state.tricks) + 1


# --------------------------------------------------------------------------- setup


def validate_options(options: BaseModel, n_players: int) -> LuzOptions:
    """Return the options as :class:`LuzOptions`; raise InvalidOptions with a reason (§3, §7)."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise InvalidOptions(
            f"Luz needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n_players} (§3)",
            reason="luz.players",
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
            seats=n_players,
        )
    if isinstance(options, LuzOptions):
        opts = options
    else:
        try:
            opts = LuzOptions.model_validate(options.model_dump())
        except ValueError as exc:
            raise InvalidOptions(
                f"these are not Luz options: {exc}", reason="luz.not_options"
            ) from exc
    if opts.first_player is not None and not 0 <= opts.first_player < n_players:
        raise InvalidOptions(
            f"first_player {opts.first_player} is not a seat of a {n_players}-player table "
            f"(0 to {n_players - 1}) (§7)",
            reason="luz.first_player",
            option="first_player",
            seats=n_players,
        )
    return opts


def setup(n_players: int, seed: int, options: BaseModel) -> LuzState:
    """The initial state: first player drawn (if not fixed) before deal 1 is shuffled (§8).

    Always ``start(n_players, seed, options).state``.
    """
    state: LuzState = start(n_players, seed, options).state
    return state


def start(n_players: int, seed: int, options: BaseModel) -> Transition:
    """The initial state and the events of deal 1, exactly as a later deal announces itself.

    Deal 1 is dealt here and not by an action, but a log must still show it begin:
    ``DealStarted`` (its first player), the public colours-only ``HandsDealt`` and one
    ``HandShown`` per seat, visible to every other seat (§6, §10 decision 11). The draw of
    the first player (§8 chance 1) needs no event of its own: ``DealStarted`` names it.
    Raises InvalidOptions like :func:`validate_options`.
    """
    opts = validate_options(options, n_players)
    rng = Rng.from_seed(seed)
    first = opts.first_player if opts.first_player is not None else rng.below(n_players)
    state = LuzState(
        n_players=n_players,
        options=opts,
        rng=rng,
        phase="betting",
        deal=0,
        start_player=first,
        first_player=first,
        hands=[[] for _ in range(n_players)],
        high_end=["right"] * n_players,
        high_end_chosen=[False] * n_players,
        undealt=[],
        bets=[None] * n_players,
        leader=first,
        tricks_won=[0] * n_players,
        scores=[0] * n_players,
    )
    events: list[Event] = []
    _start_deal(state, events)
    return Transition(state, events)


def _start_deal(state: LuzState, events: list[Event]) -> None:
    """Shuffle, deal, sort and pass (§5.1-5.3, §8); mutates ``state``."""
    n = state.n_players
    f = state.first_player
    state.deal += 1
    cards = deck(n)
    state.rng.shuffle(cards)  # §8 step 2: exactly Fisher-Yates from len-1 down to 1
    state.hands, state.undealt = deal_hands(cards, n, f)
    state.high_end = ["right"] * n
    state.high_end_chosen = [False] * n
    state.bets = [None] * n
    state.bets_placed = 0
    state.tricks_won = [0] * n
    state.trick = []
    state.tricks = []
    state.leader = f
    state.phase = "choosing_high_end" if state.options.manual_sort_direction else "betting"
    events.append(DealStarted(deal=state.deal, first_player=f))
    # The hands go into the events as plain data, validated once per event: the same models
    # as building each slot's record with its own constructor, at a fraction of the cost.
    events.append(
        HandsDealt.model_validate(
            {
                "deal": state.deal,
                "hands": [_hand_backs(state, s) for s in range(n)],
                "undealt_count": len(state.undealt),
            }
        )
    )
    for s in range(n):
        events.append(
            HandShown.model_validate(
                {
                    "deal": state.deal,
                    "seat": s,
                    "cards": [
                        {"slot": i, "card": c}
                        for i, c in enumerate(state.hands[s])
                        if c is not None
                    ],
                    "visible_to": frozenset(t for t in range(n) if t != s),
                }
            )
        )


def deal_hands(
    order: list[Card], n_players: int, first: Seat
) -> tuple[list[list[Card | None]], list[Card]]:
    """Deal a shuffled deck ``order`` (§8 steps 3-5): return the sorted hands and the undealt.

    ``order[k]`` (k < 10N) goes to sorter ``(first+1+k) mod N`` and so ends in the hand of
    seat ``(first+2+k) mod N``; each hand is sorted canonically, slot id = sorted position.
    """
    packets: list[list[Card]] = [[] for _ in range(n_players)]
    for k in range(HAND_SIZE * n_players):
        packets[(first + 2 + k) % n_players].append(order[k])
    hands: list[list[Card | None]] = []
    for packet in packets:
        packet.sort(key=sort_key)
        hands.append([*packet])
    return hands, order[HAND_SIZE * n_players :]


def _hand_backs(state: LuzState, seat: Seat) -> dict[str, Any]:
    """A hand's backs (:class:`HandBacks` as plain data): slot ids and colours, no values."""
    return {
        "seat": seat,
        "sorted_by": (seat - 1) % state.n_players,
        "high_end": state.high_end[seat],
        "slots": [
            {"slot": i, "colour": card_colour(c)}
            for i, c in enumerate(state.hands[seat])
            if c is not None
        ],
    }


# --------------------------------------------------------------------------- turn order


def to_act(state: LuzState) -> frozenset[Seat]:
    """Seats that must decide now (§7): sort choices together, then one bettor / player."""
    if state.phase == "choosing_high_end":
        return frozenset(s for s in range(state.n_players) if not state.high_end_chosen[s])
    if state.phase == "betting":
        return frozenset((current_bettor(state),))
    if state.phase == "playing":
        return frozenset((current_player(state),))
    return frozenset()


_SIDES: tuple[ChooseHighEnd, ...] = (ChooseHighEnd(side="left"), ChooseHighEnd(side="right"))
_BETS: tuple[PlaceBet, ...] = tuple(
    PlaceBet(tricks=t, safety=s) for t in range(MAX_BET + 1) for s in (False, True)
)
_PLAYS: tuple[PlayCard, ...] = tuple(PlayCard(slot=i) for i in range(HAND_SIZE))


def legal_actions(state: LuzState, seat: Seat) -> list[ChooseHighEnd | PlaceBet | PlayCard]:
    """Every action ``seat`` may take now, in the fixed order of §7; empty if none.

    The actions of the phase that :func:`action_problem` accepts. For a seat to act and an
    action of the current phase its checks before the rule of the action all pass (a seat to
    act is a seat of the table, and has neither chosen its high end nor bet yet), which
    leaves that rule: any side; every bet of 0 to 10 tricks (``_BETS``, as
    :func:`_bet_problem` allows); a card still in hand that follows (:func:`legal_slots`).
    """
    if seat not in to_act(state):
        return []
    if state.phase == "choosing_high_end":
        return list(_SIDES)
    if state.phase == "betting":
        return list(_BETS)
    return [_PLAYS[i] for i in legal_slots(state, seat)]


def legal_slots(state: LuzState, seat: Seat) -> list[int]:
    """Slots ``seat`` may play now, by colour only (§5.6); assumes it is the seat's turn."""
    hand = state.hands[seat]
    follow = _colour_to_follow(state, hand)
    return [i for i, card in enumerate(hand) if card is not None and _follows(card, follow)]


# --------------------------------------------------------------------------- legality


def parse_action(action: Any) -> ChooseHighEnd | PlaceBet | PlayCard:
    if isinstance(action, ChooseHighEnd | PlaceBet | PlayCard):
        return action
    if isinstance(action, BaseModel):
        action = action.model_dump(mode="json")
    try:
        return _ACTION_ADAPTER.validate_python(action)
    except ValueError as exc:
        raise IllegalAction(f"not a Luz action ({action!r}): {exc}", "luz.not_an_action") from exc


_PHASE_TEXT: dict[str, str] = {
    "choosing_high_end": "the sorters are choosing the high end of the hands (§5.2)",
    "betting": "the deal is in the betting phase (§5.5)",
    "playing": "the deal is in the trick phase (§5.6)",
}
_PHASE_REASON: dict[str, str] = {
    "choosing_high_end": "luz.phase_choosing_high_end",
    "betting": "luz.phase_betting",
    "playing": "luz.phase_playing",
}
_ACTION_PHASE: dict[str, str] = {
    "choose_high_end": "choosing_high_end",
    "place_bet": "betting",
    "play_card": "playing",
}


def action_problem(state: LuzState, seat: Seat, action: Any) -> RulesError | None:
    """Why ``seat`` may not take ``action`` now, as the error :func:`apply` raises; None if
    it may. The one legality check of Luz: :func:`legal_actions` lists what it accepts.

    Order of checks: game over, action shape, phase, repeated decision, turn, then the rule
    of the action.
    """
    if state.phase == "finished":
        return GameOver("the game is over: the four deals have been scored (§5.9)")
    try:
        act = parse_action(action)
    except IllegalAction as exc:
        return exc
    if not 0 <= seat < state.n_players:
        return NotYourTurn(f"seat {seat} is not a seat of this {state.n_players}-player table")
    if _ACTION_PHASE[act.type] != state.phase:
        return IllegalAction(
            f"cannot {act.type.replace('_', ' ')} now: {_PHASE_TEXT[state.phase]}",
            _PHASE_REASON[state.phase],
        )
    if isinstance(act, ChooseHighEnd) and state.high_end_chosen[seat]:
        return IllegalAction(
            f"cannot choose the high end again: seat {seat} already chose it this deal (§7)",
            "luz.high_end_chosen",
        )
    if isinstance(act, PlaceBet) and state.bets[seat] is not None:
        return IllegalAction(
            f"cannot bet again: seat {seat} already bet this deal and bets are final (§5.5)",
            "luz.bet_final",
        )
    actors = to_act(state)
    if seat not in actors:
        due = sorted(actors)
        waiting = f"seat {due[0]}" if len(due) == 1 else f"seats {_seat_list(due)}"
        return NotYourTurn(f"seat {seat} cannot act now: waiting for {waiting}")
    if isinstance(act, PlaceBet):
        return _bet_problem(act)
    if isinstance(act, PlayCard):
        hand = state.hands[seat]
        return _play_problem(hand, act.slot, _colour_to_follow(state, hand))
    return None


def _bet_problem(bet: PlaceBet) -> IllegalAction | None:
    """A bet is 0 to 10 tricks, with or without the safety bead (§5.5)."""
    if not 0 <= bet.tricks <= MAX_BET:
        return IllegalAction(
            f"cannot bet {bet.tricks} tricks: a bet is 0 to {MAX_BET} tricks (§5.5)",
            "luz.bet_range",
            max=MAX_BET,
        )
    return None


def _colour_to_follow(state: LuzState, hand: list[Card | None]) -> str | None:
    """The colour a play must follow (§5.6): the led colour while the hand holds one, else
    None (leading, or nothing of the led colour left)."""
    if state.trick:
        led = state.trick[0].card[0]
        if any(c is not None and c[0] == led for c in hand):
            return led
    return None


def _follows(card: Card, colour: str | None) -> bool:
    """Whether ``card`` may be played when the hand must follow ``colour`` (None: any card)."""
    return colour is None or card[0] == colour


def _play_problem(
    hand: list[Card | None], slot: int, must_follow: str | None
) -> IllegalAction | None:
    """Why the card in ``slot`` cannot be played (§5.6), given the colour the hand must
    follow (:func:`_colour_to_follow`); the messages name colours only (§6)."""
    if not 0 <= slot < len(hand):
        return IllegalAction(
            f"cannot play slot {slot}: hand slots are 0 to {len(hand) - 1} (§5.4)", "luz.no_slot"
        )
    card = hand[slot]
    if card is None:
        return IllegalAction(
            f"cannot play slot {slot}: that card was already played this deal (§5.6)",
            "luz.played",
        )
    if must_follow is not None and not _follows(card, must_follow):
        led_name = colour_name(must_follow)
        return IllegalAction(
            f"cannot play slot {slot} ({colour_name(card[0])}): you hold a {led_name} card, "
            f"the led colour, so you must play {led_name} (§5.6)",
            "luz.follow",
        )
    return None


# --------------------------------------------------------------------------- apply


def apply(state: LuzState, seat: Seat, action: Any) -> Transition:
    """Apply one action of ``seat``; return the next state and the events.

    Raises what :func:`action_problem` finds (GameOver, IllegalAction or NotYourTurn);
    never mutates ``state``.
    """
    problem = action_problem(state, seat, action)
    if problem is not None:
        raise problem
    act = parse_action(action)
    new = _working_copy(state)
    events: list[Event] = []
    if isinstance(act, ChooseHighEnd):
        _choose_high_end(new, seat, act.side, events)
    elif isinstance(act, PlaceBet):
        _place_bet(new, seat, act, events)
    else:
        _play_card(new, seat, act.slot, events)
    return Transition(new, events)


def _working_copy(state: LuzState) -> LuzState:
    """A copy of ``state`` that apply may change without touching ``state`` itself.

    Cheaper than a deep copy and equal to it: every list (and the Rng, which the next deal's
    shuffle advances) gets its own copy, while the cards, bets, plays, tricks, score rows
    and options inside are immutable and so are shared. A new mutable field of
    :class:`LuzState` must be copied here too.
    """
    new = state.model_copy()
    # Written into __dict__ rather than through ``model_copy(update=...)`` so that the set of
    # explicitly set fields stays exactly the input's, as a deep copy leaves it.
    new.__dict__.update(
        rng=state.rng.model_copy(),
        hands=[list(hand) for hand in state.hands],
        high_end=list(state.high_end),
        high_end_chosen=list(state.high_end_chosen),
        undealt=list(state.undealt),
        bets=list(state.bets),
        trick=list(state.trick),
        tricks=list(state.tricks),
        tricks_won=list(state.tricks_won),
        scores=list(state.scores),
        history=list(state.history),
    )
    return new


def _choose_high_end(state: LuzState, sorter: Seat, side: Side, events: list[Event]) -> None:
    holder = (sorter + 1) % state.n_players
    state.high_end[holder] = side
    state.high_end_chosen[sorter] = True
    events.append(HighEndChosen(sorter=sorter, seat=holder, side=side))
    if all(state.high_end_chosen):
        state.phase = "betting"


def _place_bet(state: LuzState, seat: Seat, bet: PlaceBet, events: list[Event]) -> None:
    state.bets[seat] = Bet(tricks=bet.tricks, safety=bet.safety)
    state.bets_placed += 1
    events.append(BetPlaced(seat=seat, tricks=bet.tricks, safety=bet.safety))
    if state.bets_placed == state.n_players:
        state.phase = "playing"
        state.leader = state.first_player


def _play_card(state: LuzState, seat: Seat, slot: int, events: list[Event]) -> None:
    card = state.hands[seat][slot]
    if card is None:
        raise RuntimeError(
            f"slot {slot} of seat {seat} is empty: apply plays only a slot it checked"
        )
    state.hands[seat][slot] = None
    state.trick.append(Play(seat=seat, slot=slot, card=card))
    number = trick_number(state)
    events.append(CardPlayed(seat=seat, slot=slot, card=card, trick_no=number))
    if len(state.trick) < state.n_players:
        return
    plays = tuple(state.trick)
    winner = trick_winner(plays, trump_of(state.options))
    state.tricks.append(Trick(number=number, leader=state.leader, plays=plays, winner=winner))
    state.trick = []
    state.tricks_won[winner] += 1
    state.leader = winner
    events.append(TrickWon(seat=winner, trick_no=number, cards=plays))
    if len(state.tricks) == TRICKS_PER_DEAL:
        score_deal(state, events)


def score_deal(state: LuzState, events: list[Event]) -> None:
    """Score the deal (§5.7), then end the game (§5.9) or pass the first player and deal (§5.8)."""
    rows: list[DealRow] = []
    for s, bet in enumerate(state.bets):
        if bet is None:
            raise RuntimeError(f"seat {s} has no bet: the tricks begin only once every seat bet")
        points = deal_points(
            state.deal, bet.tricks, bet.safety, state.tricks_won[s], state.options.safety_miss_from
        )
        state.scores[s] += points
        rows.append(
            DealRow(
                seat=s,
                bet=bet.tricks,
                safety=bet.safety,
                won=state.tricks_won[s],
                points=points,
                total=state.scores[s],
            )
        )
    state.history.append(tuple(rows))
    events.append(DealScored(deal=state.deal, rows=tuple(rows)))
    if state.deal >= DEALS:
        state.phase = "finished"
        res = _final_result(state)
        events.append(
            GameEnded(scores=tuple(state.scores), ranking=tuple(res.ranking), tiebreak=res.tiebreak)
        )
        return
    if state.options.first_player_rotation == "left":
        old = state.first_player
        state.first_player = (old + 1) % state.n_players
        events.append(FirstPlayerPassed(from_seat=old, seat=state.first_player))
    _start_deal(state, events)


# --------------------------------------------------------------------------- result

_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def _seat_list(seats: list[Seat]) -> str:
    names = [str(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result(state: LuzState) -> Result | None:
    """None while running; at the end the totals, ranking and shared places (§5.9)."""
    if state.phase != "finished":
        return None
    return _final_result(state)


def _final_result(state: LuzState) -> Result:
    """The result of a finished game: totals, ranking and shared places (§5.9)."""
    scores = dict(enumerate(state.scores))
    ranking, places = rank_by_score(scores)
    texts: list[str] = []
    for place in sorted(set(places.values())):
        tied = [s for s in ranking if places[s] == place]
        if len(tied) > 1:
            texts.append(
                f"Seats {_seat_list(tied)} are tied on {scores[tied[0]]} points and share "
                f"{_ORDINALS[place - 1]} place."
            )
    details: dict[str, Any] = {
        "deals": [[row.model_dump(mode="json") for row in rows] for rows in state.history],
        "exact_bets": {
            s: sum(1 for rows in state.history if rows[s].points > 0 and not rows[s].safety)
            for s in range(state.n_players)
        },
        "safety_bets": {
            s: sum(1 for rows in state.history if rows[s].safety) for s in range(state.n_players)
        },
        "tricks_won": {
            s: sum(rows[s].won for rows in state.history) for s in range(state.n_players)
        },
    }
    return Result(
        scores=scores, ranking=ranking, places=places, tiebreak=" ".join(texts), details=details
    )
