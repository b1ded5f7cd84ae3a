"""The strong bot: information-set Monte Carlo tree search over a game's own rules.

The bot never sees the state it plays in, only its seat's view. Each iteration of the
search deals a world that view allows (the game's ``determinize``: the hidden cards, tiles
and chance drawn at random from what is unseen), walks one tree shared by all those worlds
(single-observer ISMCTS, Cowling, Powley & Whitehouse 2012: a move is counted as
*available* each time a world offers it, so moves that only some worlds allow are not
favoured), plays a few random moves past the tree's edge and asks the game's ``evaluate``
how each seat stands there. Every seat in the tree plays to its own interest: a node keeps
the rewards of the seat that moved into it.

A game whose evaluation misleads a tree (MINE!, Glück Auf, Ginkgopolis) declares a
``SearchStyle`` with ``candidates`` instead, and :func:`improve` looks ahead from its normal
bot's move rather than building a tree.

Its only chance is the ``rng`` it is given, and it stops after ``budget.iterations``
searches, so a seed and a budget decide its move; ``budget.seconds`` caps the wall clock on
a machine too slow for the iterations (then the move depends on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple, Protocol

# The engine protocol (app.games.base) asks this module for its moves: it imports nothing
# of the server's, so the two form no loop, and a game is searched through the few parts
# of its engine that ``Searchable`` names.
Seat = int

#: A rollout depth that plays on to the end of the game.
TO_THE_END = 1 << 30

#: The level that searches; a game that determinizes offers it by naming it in its levels.
STRONG = "strong"


class SearchBudget(NamedTuple):
    """What the strong bot may spend on one move: at most ``iterations`` searches and about
    ``seconds`` of wall clock, whichever ends first. Within the iterations it is
    deterministic for a given rng; the clock is the cap that keeps a slow machine in time."""

    iterations: int = 600
    seconds: float = 1.0


class SearchStyle(NamedTuple):
    """How a game's strong bot searches (:mod:`app.games.search`), declared by the game.

    Past the tree's edge a search plays ``rollout_depth`` moves by the ``rollout_level``
    bot ("random", or one of the game's own levels, which then reads the views of the dealt
    world) before the game's ``evaluate`` judges the position; ``exploration`` is UCB1's
    weight for rewards in [0, 1]."""

    rollout_depth: int = 8
    rollout_level: str = "random"
    exploration: float = 0.7
    #: Above 0, the search improves on the ``rollout_level`` bot instead of building a
    #: tree: it weighs that bot's move against up to ``candidates`` others (see
    #: :func:`improve`), each played out by that bot for every seat.
    candidates: int = 0
    #: The level whose choices, drawn ``alternative_draws`` times, propose the others.
    alternative_level: str = "easy"
    alternative_draws: int = 24
    #: How many standard errors another candidate's gain over the bot's move must reach.
    caution: float = 1.0
    #: Past ``rollout_depth`` moves, play on until every seat is to move at once (the start
    #: of a round of simultaneous choices), so that every playout is judged at the same
    #: point of a round: judged mid-round, a move that adds a decision of its own is
    #: judged before the others have had their turn, and looks better than it is.
    settle: bool = False


DEFAULT_SEARCH = SearchStyle()


class Searchable(Protocol):
    """What the search uses of a game's engine (``app.games.base.GameEngine``)."""

    @property
    def rules(self) -> Any: ...
    @property
    def search_style(self) -> SearchStyle: ...
    def determinize(self, view: Any, seat: Seat, rng: random.Random) -> Any: ...
    def evaluate(self, state: Any) -> list[float]: ...
    def playout_view(self, state: Any, seat: Seat) -> Any: ...
    def bot(self, view: Any, legal_actions: list[Any], rng: random.Random, level: str) -> Any: ...


#: At the end of a game, a seat's reward is mostly whether it won, partly how well it did
#: (the game's ``evaluate`` of the final state): without it, a lost game gives the search
#: nothing to prefer and the bot gives up on its score.
WIN_WEIGHT = 0.75


class _Node:
    __slots__ = ("actor", "available", "children", "reward", "visits")

    def __init__(self, actor: Seat) -> None:
        self.actor = actor
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 1
        self.reward = 0.0


def _key(action: Any) -> Hashable:
    """An action as a tree's edge: equal actions of different worlds share it."""
    try:
        hash(action)
    except TypeError:
        return repr(action)
    return action  # type: ignore[no-any-return]


def win_shares(result: Any, n_seats: int) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, split between seats (and automatic
    opponents, such as Hal) that share first place, 0 for the others."""
    places = [*result.places.values(), *(o.place for o in result.others)]
    if not places:
        return [1.0 / n_seats] * n_seats
    best = min(places)
    firsts = places.count(best)
    shares = [0.0] * n_seats
    for seat, place in result.places.items():
        if place == best:
            shares[int(seat)] = 1.0 / firsts
    return shares


def _rewards(engine: Searchable, state: Any, n_seats: int) -> list[float]:
    result = engine.rules.result(state)
    prospects = engine.evaluate(state)
    if result is None:
        return prospects
    wins = win_shares(result, n_seats)
    return [WIN_WEIGHT * w + (1 - WIN_WEIGHT) * p for w, p in zip(wins, prospects, strict=True)]


def _actor(to_act: frozenset[Seat], me: Seat) -> Seat:
    # Moves that are made at once are searched one after the other, the searching seat's
    # first: its tree then never conditions its own choice on a choice it could not see.
    return me if me in to_act else min(to_act)


def choose(
    engine: Searchable,
    view: Any,
    seat: Seat,
    legal_actions: Sequence[Any],
    rng: random.Random,
    budget: SearchBudget,
    style: SearchStyle | None = None,
) -> Any:
    """The move the search finds best for ``seat`` from its ``view``, one of
    ``legal_actions`` (the moves the seat has; every world it deals has the same), searching
    in ``style`` (the game's own by default)."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    style = style or engine.search_style
    if style.candidates:
        return improve(engine, view, seat, legal_actions, rng, budget, style)
    rules = engine.rules
    exploration = style.exploration
    root = _Node(seat)
    root_keys = [_key(a) for a in legal_actions]
    deadline = time.perf_counter() + budget.seconds
    n_seats: int | None = None
    for iteration in range(budget.iterations):
        if iteration and time.perf_counter() > deadline:
            break
        state = engine.determinize(view, seat, rng)
        if n_seats is None:
            n_seats = len(engine.evaluate(state))
        node, path = root, [root]
        actions: Sequence[Any] = legal_actions
        keys = root_keys
        actor = seat
        # Selection, then one expansion: down the tree while every move here was tried.
        while True:
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.available += 1
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            if untried:
                index = untried[rng.randrange(len(untried))]
                child = node.children[keys[index]] = _Node(actor)
            else:
                log_of = math.log
                best_index, best_score = 0, -1.0
                for i, k in enumerate(keys):
                    c = node.children[k]
                    score = c.reward / c.visits + exploration * math.sqrt(
                        log_of(c.available) / c.visits
                    )
                    if score > best_score:
                        best_index, best_score = i, score
                index = best_index
                child = node.children[keys[index]]
            state, _ = rules.apply(state, actor, actions[index])
            path.append(child)
            node = child
            if untried or rules.result(state) is not None:
                break
            actor = _actor(rules.to_act(state), seat)
            actions = rules.legal_actions(state, actor)
            keys = [_key(a) for a in actions]
        # A short playout past the edge, then the position as the game judges it.
        state = _play_on(engine, state, seat, rng, style, n_seats)
        rewards = _rewards(engine, state, n_seats)
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += rewards[visited.actor]
    best = max(
        range(len(legal_actions)),
        key=lambda i: _score(root.children.get(root_keys[i])),
    )
    return legal_actions[best]


def _play_on(
    engine: Searchable,
    state: Any,
    seat: Seat,
    rng: random.Random,
    style: SearchStyle,
    n_seats: int,
) -> Any:
    """``state`` after up to ``style.rollout_depth`` more moves by the ``rollout_level`` bot
    (and, with ``style.settle``, on to where all ``n_seats`` are to move), each seat's from
    that seat's view of the dealt world, as it would play at a table."""
    rules = engine.rules
    played = 0
    while played < style.rollout_depth or (style.settle and len(rules.to_act(state)) < n_seats):
        if rules.result(state) is not None:
            break
        played += 1
        mover = _actor(rules.to_act(state), seat)
        if style.rollout_level == "random":
            moves = rules.legal_actions(state, mover)
            move = moves[rng.randrange(len(moves))]
        else:
            move = _policy_move(engine, state, mover, rng, style.rollout_level)
        state, _ = rules.apply(state, mover, move)
    return state


def _policy_move(
    engine: Searchable,
    state: Any,
    mover: Seat,
    rng: random.Random,
    level: str,
) -> Any:
    """The move of the ``level`` bot for ``mover``, from its view of the dealt world."""
    moves = list(engine.rules.legal_actions(state, mover))
    if len(moves) == 1:
        return moves[0]
    return engine.bot(engine.playout_view(state, mover), moves, rng, level)


def _score(node: _Node | None) -> tuple[int, float]:
    if node is None or not node.visits:
        return (0, 0.0)
    return (node.visits, node.reward / node.visits)


def improve(
    engine: Searchable,
    view: Any,
    seat: Seat,
    legal_actions: Sequence[Any],
    rng: random.Random,
    budget: SearchBudget,
    style: SearchStyle,
) -> Any:
    """The ``rollout_level`` bot's move, or another one that its own play shows better.

    The rollout algorithm (Tesauro & Galperin 1996; Bertsekas' policy improvement): the
    candidates are that bot's move and the ones its ``alternative_level`` most often makes
    instead (a human-like slip of the same judgement proposes what is nearly as good). Each
    round deals one world and plays every candidate out in it, then every seat by the
    ``rollout_level`` bot for ``rollout_depth`` moves, each playout with the same chance (common
    random numbers: the candidates differ by their own effect, not by luck). An iteration
    is one playout, and the budget's clock is checked between rounds. The bot's own move is
    kept unless another one's gain over it is proven (:func:`_proven_better`)."""
    rules = engine.rules
    policy_rng = random.Random(rng.random())
    base = engine.bot(view, list(legal_actions), policy_rng, style.rollout_level)
    base_key = _key(base)
    proposals: dict[Hashable, tuple[int, Any]] = {}
    # A small budget (a test's) also draws fewer proposals.
    for _ in range(min(style.alternative_draws, 4 * budget.iterations)):
        move = engine.bot(view, list(legal_actions), rng, style.alternative_level)
        k = _key(move)
        if k != base_key:
            count, _ = proposals.get(k, (0, move))
            proposals[k] = (count + 1, move)
    ranked = sorted(proposals.values(), key=lambda cm: -cm[0])
    # A budget of fewer playouts than candidates weighs fewer of them, and at least one.
    room = min(style.candidates, max(1, budget.iterations - 1))
    candidates = [base, *(move for _, move in ranked[:room])]
    if len(candidates) == 1:
        return base
    # Each round's reward per candidate: the candidates are compared round by round.
    rounds: list[list[float]] = []
    deadline = time.perf_counter() + budget.seconds
    n_seats: int | None = None
    playouts = 0
    while playouts + len(candidates) <= max(budget.iterations, len(candidates)):
        if playouts and time.perf_counter() > deadline:
            break
        world = engine.determinize(view, seat, rng)
        if n_seats is None:
            n_seats = len(engine.evaluate(world))
        chance = rng.random()
        rewards: list[float] = []
        for move in candidates:
            state, _ = rules.apply(world, seat, move)
            state = _play_on(engine, state, seat, random.Random(chance), style, n_seats)
            rewards.append(_rewards(engine, state, n_seats)[seat])
        rounds.append(rewards)
        playouts += len(candidates)
    return candidates[_proven_better(rounds, style.caution)]


def _proven_better(rounds: list[list[float]], caution: float) -> int:
    """The candidate (by index) whose gain over candidate 0 in the same rounds is largest,
    among those whose mean gain exceeds ``caution`` standard errors; 0 if none does.

    With a few rounds a move a second, the best-looking of several candidates often looks
    best by luck; only a gain the rounds agree on replaces the bot's own move."""
    n = len(rounds)
    if n < 2:
        return 0
    best, best_gain = 0, 0.0
    for i in range(1, len(rounds[0])):
        gains = [r[i] - r[0] for r in rounds]
        mean = sum(gains) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
        if mean > caution * spread / math.sqrt(n) and mean > best_gain:
            best, best_gain = i, mean
    return best
