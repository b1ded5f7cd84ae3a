"""The engine protocol: the only thing the rest of the server knows about a game.

Every game package under ``app/games/<id>/`` exports one ``ENGINE`` object that
satisfies :class:`Engine`. Engines are pure: given a state and an action they
return the next state and the events it caused, or raise a :class:`RulesError`
that names the rule. They import nothing from the web, the database or asyncio.

All chance comes from an :class:`Rng` that lives *inside* the state, so the
same seed and the same actions replay the same game bit for bit.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable, Mapping, Sequence
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    NamedTuple,
    Protocol,
    TypeAlias,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    runtime_checkable,
)

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)
from pydantic_core import to_json

from app.games.messages import Locale as Locale
from app.games.messages import Message, render
from app.games.search import DEFAULT_SEARCH, choose
from app.games.search import STRONG as STRONG
from app.games.search import TO_THE_END as TO_THE_END
from app.games.search import SearchBudget as SearchBudget
from app.games.search import SearchStyle as SearchStyle

Seat: TypeAlias = int

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")
StateT = TypeVar("StateT", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=BaseModel)
ActionT = TypeVar("ActionT", bound=BaseModel)
ViewT = TypeVar("ViewT", bound=BaseModel)


# --------------------------------------------------------------------------- errors


class Refusal(str):
    """The English sentence of a refusal that also carries what a client needs to word it in
    its own language: ``reason``, a stable code ("<game>.<snake_case>", the key
    ``error.<api code>.<reason>`` of static/i18n), and ``params``, the values the sentence
    names. Being a ``str``, it goes wherever an engine's helpers used to return the text."""

    reason: str
    params: dict[str, Any]

    def __new__(cls, text: str, reason: str, **params: Any) -> Refusal:
        refusal = super().__new__(cls, text)
        refusal.reason = reason
        refusal.params = params
        return refusal


def final_because(text: str, reason: str, **params: Any) -> Refusal:
    """Why the rules make an action final, for a take-back refused (``409 not_undoable``):
    the English sentence naming the rule, its ``reason`` ("<game>.<snake_case>", the key
    ``error.not_undoable.<reason>`` of static/i18n) and ``params`` (an engine's
    ``why_final`` hook, :func:`why_final`)."""
    return Refusal(text, reason, **params)


class RulesError(ValueError):
    """Base class of every error an engine raises; ``code`` is the API error code.

    ``reason`` and ``params`` say the same as ``message`` for a translation (see
    :class:`Refusal`); a :class:`Refusal` given as the message brings its own."""

    code: ClassVar[str] = "illegal_action"

    def __init__(self, message: str, reason: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = str(message)
        if reason is None and isinstance(message, Refusal):
            reason, params = message.reason, {**message.params, **params}
        self.reason = reason
        self.params = params


class IllegalAction(RulesError):
    """The action breaks a rule; the message says which (and quotes the rule section)."""

    code = "illegal_action"


class NotYourTurn(RulesError):
    """The seat is not among those that must decide now."""

    code = "not_your_turn"


class GameOver(RulesError):
    """The game has ended; no action is accepted any more."""

    code = "game_over"


class InvalidOptions(RulesError):
    """The table options (or the player count) are not valid for this game.

    ``option`` names the option refused (its path in the options: "characters"), when one
    option is at fault; a refusal of the options together, or of the player count, has none.
    """

    code = "invalid_options"

    def __init__(
        self, message: str, reason: str | None = None, *, option: str | None = None, **params: Any
    ) -> None:
        super().__init__(message, reason, **params)
        self.option = option


# --------------------------------------------------------------------------- chance


class Rng(BaseModel):
    """A seeded, JSON-serialisable random source kept inside a game state.

    It is SplitMix64 over ``seed + draws * gamma``: the whole generator state is
    two integers, so a state dump shows exactly how far the chance has advanced.
    Methods advance ``draws``; engines call them only on their private copy of
    the state inside ``apply``/``setup``.

    >>> r = Rng.from_seed(7); a = r.below(10); r2 = Rng.from_seed(7); a == r2.below(10)
    True
    """

    model_config = ConfigDict(validate_assignment=False)

    seed: int = Field(ge=0, lt=1 << 64)
    draws: int = Field(default=0, ge=0)

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed=seed & _MASK64, draws=0)

    def next64(self) -> int:
        """Return the next raw 64-bit value."""
        # Straight into the instance dict: pydantic's __setattr__ costs more than the
        # arithmetic, and shuffles draw in tight loops. Marking the field as set keeps
        # every kind of dump exactly as an assignment would have made it.
        draws: int = self.__dict__["draws"] + 1
        self.__dict__["draws"] = draws
        self.__pydantic_fields_set__.add("draws")
        z = (self.seed + draws * _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"Rng.below needs a positive bound, got {n}")
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """Return a uniform integer in ``[low, high]`` (both ends included)."""
        return low + self.below(high - low + 1)

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates in place: for i from len−1 down to 1, swap i with a uniform j in [0, i]
        (``below(i + 1)``).

        The draws of :meth:`below` and :meth:`next64` are written out here: a deck's shuffle
        draws dozens of times, and the calls cost more than the arithmetic
        (tests/unit/games/test_rng.py holds it to the loop over ``below``)."""
        seed: int = self.seed
        draws: int = self.__dict__["draws"]
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = ((1 << 64) // n) * n
            while True:
                draws += 1
                z = (seed + draws * _GAMMA) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        if draws != self.__dict__["draws"]:  # as next64 writes it
            self.__dict__["draws"] = draws
            self.__pydantic_fields_set__.add("draws")

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]


# --------------------------------------------------------------------------- value types


class Event(BaseModel):
    """Something that happened, in the past tense.

    ``visible_to`` is None for a public event, otherwise the seats that may see it.
    Each game subclasses this with a ``type: Literal[...]`` field.
    """

    model_config = ConfigDict(frozen=True)

    type: str
    visible_to: frozenset[Seat] | None = None

    def is_visible_to(self, seat: Seat | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class Transition(NamedTuple):
    """What ``apply`` returns: the next state and the events the action caused."""

    state: Any
    events: list[Event]


class Opponent(BaseModel):
    """A participant ranked with the seats that is no seat: an automatic opponent the rules
    play (Ginkgopolis' Hal in the solo game, MINE!'s dummy director)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="stable id within the game (`hal`, `dummy`)")
    name: str = Field(description="its English name; clients may translate by `id`")
    score: int
    place: int = Field(description="its place among the seats' places (1 = winner)")


class Result(BaseModel):
    """Final outcome, the shape of API.md: scores per seat, ranking best first, tie-break text.

    ``places`` gives each seat its place (1 = winner); seats that tie share a place.
    ``others`` ranks the automatic opponents among them (so a solo seat that lost is not
    "place 2 of 1"); it is left out of the JSON when empty, so a game without one keeps
    its results unchanged. ``details`` carries game-specific extras.
    """

    scores: dict[Seat, int]
    ranking: list[Seat]
    tiebreak: str = ""
    places: dict[Seat, int] = Field(default_factory=dict)
    details: dict[str, Any] = Field(default_factory=dict)
    others: list[Opponent] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _without_empty_others(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not self.others:
            data.pop("others", None)
        return data


class Figure(NamedTuple):
    """A picture for the game's "How to play" page: a real state and the seat it is seen from.

    The server shows only ``view(state, seat)`` of it, drawn by the game's own renderer.
    """

    state: Any
    seat: Seat | None
    caption: str = ""


class GameInfo(BaseModel):
    """Static facts about a game, as listed by ``GET /api/v1/games``."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    min_players: int
    max_players: int
    bot_levels: tuple[str, ...] = ("normal", "random")
    #: The level a bot seat gets when nobody names one (``POST /tables/{id}/bots`` without
    #: ``level``, a resigned or taken-over seat at a table that chose none).
    default_bot_level: str = "normal"


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Engine(Protocol):
    """The engine protocol (DESIGN.md, STYLE.md "The game-engine protocol").

    ``Options``, ``State`` are pydantic model classes; ``Action`` is the
    discriminated union of the game's action models (use :func:`action_adapter`);
    ``Event`` the discriminated union of its event models (use :func:`parse_event`).
    ``figures`` names the example positions of the rules page: each builds a real
    state (setup from a fixed seed, then legal actions) and says from which seat it
    is seen.

    One optional method, ``redact_log(state, events, seat)``, lets a game hide again
    what its rules say may no longer be shown while it runs (Luz ``strict_memory``: the
    cards of older tricks); the server calls it through :func:`redact_log`, and an
    engine without it shows its log as logged. Another, ``automatic_opponents(state)``,
    names the opponents the rules play in a running game (:func:`automatic_opponents`).
    """

    info: GameInfo
    Options: type[BaseModel]
    State: type[BaseModel]
    Action: Any
    Event: Any
    figures: Mapping[str, Callable[[], Figure]]

    def max_length(self, n_players: int) -> int:
        """An upper bound on the number of actions in one game (conformance tests use it)."""
        ...

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        """Raise :class:`InvalidOptions` with a human reason if the options or count are not valid."""
        ...

    def setup(self, n_players: int, seed: int, options: BaseModel) -> BaseModel:
        """Return the initial state; deterministic in (n_players, seed, options).

        Always ``start(n_players, seed, options).state``.
        """
        ...

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        """Return the initial state and the events the setup caused, like ``apply`` does.

        The setup is the game's first move by nobody: the first player drawn, deal 1 or
        round 1 begun, cards dealt (private events carry ``visible_to``). The server logs
        these events at version 1 (actor ``null``), so that a client or a replay that
        follows the log sees the first deal or round begin like every later one.
        """
        ...

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        """Return the seats that must decide now; empty when the game is over."""
        ...

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        """Return every action ``seat`` may take now, in a fixed order; empty if none."""
        ...

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        """Return the next state and events; never mutates ``state``; raises :class:`RulesError`."""
        ...

    def view(self, state: BaseModel, seat: Seat | None) -> BaseModel:
        """Return what ``seat`` may see (None = a spectator)."""
        ...

    def view_json(
        self, state: BaseModel, seat: Seat | None, parts: dict[Any, Any] | None = None
    ) -> dict[str, Any]:
        """The view as the wire carries it: ``view(state, seat).model_dump(mode="json")``.

        ``parts``, kept by the caller for one state, lets the views of its seats share what
        they have in common (built once): the views returned then share those objects, so
        nobody may change a view's data in place."""
        ...

    def result(self, state: BaseModel) -> Result | None:
        """Return the final result, or None while the game runs."""
        ...

    def bot(
        self,
        view: BaseModel,
        legal_actions: list[Any],
        rng: random.Random,
        level: str = "normal",
        *,
        seat: Seat | None = None,
        budget: SearchBudget | None = None,
    ) -> Any:
        """Return one element of ``legal_actions``, decided only from ``view``.

        The "strong" level searches (:mod:`app.games.search`): it needs ``seat``, the seat
        whose view this is, and spends ``budget`` (the default one when None)."""
        ...

    def determinize(self, view: BaseModel, seat: Seat, rng: random.Random) -> BaseModel:
        """A complete state whose ``view(state, seat)`` is ``view``: what the seat may not see
        (other hands, decks, face-down cards, tiles behind screens, the chance to come) dealt
        at random from what is unseen. Pure: the same ``rng`` state gives the same state."""
        ...

    def evaluate(self, state: BaseModel) -> list[float]:
        """Each seat's prospects in a running state, in [0, 1] (1 = surely wins): what a
        search counts where it stops looking ahead. Read from the whole state, which a search
        only ever has as a :meth:`determinize`."""
        ...

    def message(self, item: BaseModel) -> Message:
        """What people read about an action, an event or the game's :class:`Result`, as a
        message of the catalogue (``static/i18n``; see :mod:`app.games.messages`).

        Scoring events may span several lines (joined by "\\n"): one per step, so a
        player can follow how the points came about.

        For a ``Result`` it says how the ties were settled, for people: seats named
        as the log lines name them, each tie on its own line, and "" when no tie needs
        explaining. It reads only the ``Result`` (scores, ranking, places, details), which
        may have gone through JSON: keys inside ``details`` may be strings (see
        :func:`by_seat`). ``Result.tiebreak`` stays the engine's plain English record; the
        server sends this text next to it as ``result.tiebreak_text`` when a client asks
        for a language.
        """
        ...

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        """:meth:`message` as text in ``locale``, seats by number ("seat 2")."""
        ...

    def undoable(self, state: BaseModel, seat: Seat, action: Any) -> bool:
        """Whether ``seat`` may take ``action`` back right after taking it in ``state``.

        True only when applying it revealed nothing hidden to anybody (no card drawn,
        no shuffle or die seen, no secret choice resolved) and drew no chance that a
        retry could re-roll. The server adds the other conditions (it is the seat's
        own last action and nobody acted since).

        An engine may also define ``why_final(state, seat, action)``: for an action it
        does not let be taken back, the rule that makes it final, as a :class:`Refusal`
        made by :func:`final_because` (None: the general reason, :func:`why_final`).
        """
        ...


# --------------------------------------------------------------------------- the one adapter

BotPolicy: TypeAlias = Callable[[ViewT, list[Any], random.Random], Any]

OptionsT_contra = TypeVar("OptionsT_contra", bound=BaseModel, contravariant=True)


class Rules(Protocol[StateT, OptionsT_contra, ActionT]):
    """A game's ``rules`` module: the pure functions of its play, over its own models."""

    def validate_options(self, options: OptionsT_contra, n_players: int, /) -> object: ...
    def start(
        self, n_players: int, seed: int, options: OptionsT_contra, /
    ) -> tuple[StateT, list[Event]]: ...
    def to_act(self, state: StateT, /) -> frozenset[Seat]: ...
    def legal_actions(self, state: StateT, seat: Seat, /) -> Sequence[ActionT]: ...
    def apply(
        self, state: StateT, seat: Seat, action: ActionT, /
    ) -> tuple[StateT, list[Event]]: ...
    def result(self, state: StateT, /) -> Result | None: ...


"""A bot level's policy: one of the legal actions, decided from the seat's view only."""


class GameEngine(Generic[StateT, OptionsT, ActionT, ViewT]):
    """The one object that makes a game's pure functions an :class:`Engine`.

    A game declares its parts (its models, its ``rules`` module, which satisfies
    :class:`Rules`, and the functions of its ``view``, ``bot``, ``describe`` (its messages)
    and ``undo``
    modules) and this class guards the public calls
    once for every game, as OpenSpiel's base class checks a call before the game's hook
    runs: a state, options or view of another model is a programming error and raises
    ``TypeError`` naming the model expected; an action that is none of the game's action
    models is read as a client's JSON (strictly, like :func:`parse_action`) or refused
    with the game's ``not_an_action``. The game's functions therefore only ever see their
    own models, and stay free of such checks.
    """

    def __init__(
        self,
        *,
        info: GameInfo,
        state: type[StateT],
        options: type[OptionsT],
        action: Any,
        event: Any,
        view_model: type[ViewT],
        figures: Mapping[str, Callable[[], Figure]],
        max_length: Callable[[int], int],
        rules: Rules[StateT, OptionsT, ActionT],
        view: Callable[[StateT, Seat | None], ViewT],
        bots: Mapping[str, BotPolicy[ViewT]],
        message: Callable[[BaseModel], Message],
        undoable: Callable[[StateT, Seat, ActionT], bool],
        not_an_action: Refusal,
        redact_log: Callable[[StateT, list[dict[str, Any]], Seat | None], list[dict[str, Any]]]
        | None = None,
        check_options_at_start: bool = True,
        view_json: Callable[[StateT, Seat | None, dict[Any, Any]], dict[str, Any]] | None = None,
        determinize: Callable[[ViewT, Seat, random.Random], StateT] | None = None,
        evaluate: Callable[[StateT], list[float]] | None = None,
        search_style: SearchStyle = DEFAULT_SEARCH,
        playout_view: Callable[[StateT, Seat], ViewT] | None = None,
        automatic_opponents: Callable[[StateT], list[Opponent]] | None = None,
        why_final: Callable[[StateT, Seat, ActionT], Refusal | None] | None = None,
    ) -> None:
        """Declare a game from its parts.

        ``action`` and ``event`` are the discriminated unions pydantic reads (the models
        of ``action`` are also what :meth:`apply` accepts as they are). ``bots`` holds a
        policy per bot level but "random", which every game shares (:func:`random_bot`);
        ``info.bot_levels`` must name exactly those levels. ``check_options_at_start``
        makes :meth:`start` refuse what :meth:`validate_options` refuses, before the game's
        ``start`` runs; a game turns it off only when a stored table with options refused
        later must still replay. ``redact_log`` is the optional hook of :func:`redact_log`.
        ``view_json`` is the optional fast form of the view for the wire: exactly
        ``view(...).model_dump(mode="json")``, built without the models (every view a server
        sends goes through it; tests/unit/games/test_view_json.py holds a game to it); its
        third argument is the caller's ``parts`` of :meth:`Engine.view_json` (a new dict
        when the caller keeps none).
        ``determinize`` and ``evaluate`` are what the "strong" level searches with
        (:meth:`Engine.determinize`, :meth:`Engine.evaluate`), in the game's
        ``search_style``. A game with both may offer that level by naming it in
        ``info.bot_levels``: it does once the ladder (benchmarks/ladder.py, docs/BOTS.md)
        shows its search beating its normal bot, so that no level called strong is weaker
        than normal. Until then the ladder still measures its search. ``playout_view`` is
        the optional lighter view its playouts hand their bots (:meth:`playout_view`).
        ``automatic_opponents`` is the optional hook of :func:`automatic_opponents`, for a
        game whose result ranks opponents that are no seat (``Result.others``).
        ``why_final`` is the optional hook of :func:`why_final`: the rule that makes an
        action final, said when a take-back of it is refused.
        """
        levels = {"random", *bots}
        can_search = determinize is not None and evaluate is not None
        self._searches = can_search and STRONG in info.bot_levels
        if self._searches:
            levels.add(STRONG)
        if set(info.bot_levels) != levels:
            raise ValueError(
                f"{info.id}: bot_levels {info.bot_levels} do not match the policies {sorted(levels)}"
            )
        self.info = info
        self.Options: type[BaseModel] = options
        self.State: type[BaseModel] = state
        self.Action: Any = action
        self.Event: Any = event
        self.figures: Mapping[str, Callable[[], Figure]] = figures
        self._state_model = state
        self._options_model = options
        self._view_model = view_model
        self._action_models: tuple[type[ActionT], ...] = union_models(action)
        self._action_types: frozenset[type[Any]] = frozenset(self._action_models)
        self._action_adapter: TypeAdapter[ActionT] = TypeAdapter(action)
        self._max_length = max_length
        self._rules = rules
        self._validate_options = rules.validate_options
        self._start = rules.start
        self._to_act = rules.to_act
        self._legal_actions = rules.legal_actions
        self._apply = rules.apply
        self._view = view
        self._view_json = view_json
        self._result = rules.result
        self._bots = bots
        self._message = message
        self._undoable = undoable
        self._not_an_action = not_an_action
        self._redact_log = redact_log
        self._automatic_opponents = automatic_opponents
        self._why_final = why_final
        self._check_options_at_start = check_options_at_start
        self._determinize = determinize
        self._evaluate = evaluate
        self._playout_view = view if playout_view is None else playout_view
        #: How a search of this game goes.
        self.search_style = search_style
        if self.search_style.rollout_level not in {"random", *bots}:
            raise ValueError(
                f"{info.id}: no bot level {self.search_style.rollout_level!r} to roll out"
            )
        if self.search_style.candidates and self.search_style.alternative_level not in bots:
            raise ValueError(
                f"{info.id}: no bot level {self.search_style.alternative_level!r} to propose moves"
            )
        if info.default_bot_level not in levels:
            raise ValueError(f"{info.id}: no bot level {info.default_bot_level!r} to default to")

    def __repr__(self) -> str:
        return f"GameEngine({self.info.id!r})"

    # The guards: the only checks of a call's types, written once for every game.

    def _state(self, state: BaseModel) -> StateT:
        if not isinstance(state, self._state_model):
            raise TypeError(
                f"{self.info.id}: expected a {self._state_model.__name__}, "
                f"got {type(state).__name__}"
            )
        return state

    def _options(self, options: BaseModel) -> OptionsT:
        if not isinstance(options, self._options_model):
            raise TypeError(
                f"{self.info.id}: expected {self._options_model.__name__}, "
                f"got {type(options).__name__}"
            )
        return options

    def _action(self, action: Any) -> ActionT:
        """One of the game's action models: as given, or read from a client's JSON."""
        # The exact class first: each miss of isinstance over a pydantic class costs a trip
        # through ABCMeta, and a game has a dozen action models.
        if type(action) in self._action_types or isinstance(action, self._action_models):
            return cast(ActionT, action)
        data = action.model_dump(mode="json") if isinstance(action, BaseModel) else action
        try:
            return self._action_adapter.validate_json(to_json(data), strict=True)
        except ValueError as exc:
            refusal = self._not_an_action
            raise IllegalAction(
                f"{refusal} ({action!r}): {exc}", refusal.reason, **refusal.params
            ) from exc

    # The protocol.

    def max_length(self, n_players: int) -> int:
        """An upper bound on the number of actions in one game (conformance tests use it)."""
        return self._max_length(n_players)

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        """Raise :class:`InvalidOptions` with a human reason if the options or count are not valid."""
        self._validate_options(self._options(options), n_players)

    def setup(self, n_players: int, seed: int, options: BaseModel) -> StateT:
        """The initial state: always ``start(n_players, seed, options).state``."""
        return self._setup(n_players, seed, options)[0]

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        """The initial state and the events the setup caused (see :meth:`Engine.start`)."""
        state, events = self._setup(n_players, seed, options)
        return Transition(state, events)

    def _setup(self, n_players: int, seed: int, options: BaseModel) -> tuple[StateT, list[Event]]:
        opts = self._options(options)
        if self._check_options_at_start:
            self._validate_options(opts, n_players)
        return self._start(n_players, seed, opts)

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        """The seats that must decide now; empty when the game is over."""
        return self._to_act(self._state(state))

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        """Every action ``seat`` may take now, in the game's fixed order; empty if none."""
        return list(self._legal_actions(self._state(state), seat))

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        """The next state and events; never mutates ``state``; raises :class:`RulesError`."""
        new, events = self._apply(self._state(state), seat, self._action(action))
        return Transition(new, events)

    def view(self, state: BaseModel, seat: Seat | None) -> ViewT:
        """What ``seat`` may see (None = a spectator)."""
        return self._view(self._state(state), seat)

    def view_json(
        self, state: BaseModel, seat: Seat | None, parts: dict[Any, Any] | None = None
    ) -> dict[str, Any]:
        """:meth:`view` as the wire carries it (``model_dump(mode="json")``); ``parts`` as
        :meth:`Engine.view_json` says."""
        checked = self._state(state)
        if self._view_json is not None:
            return self._view_json(checked, seat, {} if parts is None else parts)
        return self._view(checked, seat).model_dump(mode="json")

    def result(self, state: BaseModel) -> Result | None:
        """The final result, or None while the game runs."""
        return self._result(self._state(state))

    def redact_log(
        self, state: BaseModel, events: list[dict[str, Any]], seat: Seat | None
    ) -> list[dict[str, Any]]:
        """The logged events that may still be shown to ``seat`` (see :func:`redact_log`)."""
        checked = self._state(state)
        return events if self._redact_log is None else self._redact_log(checked, events, seat)

    def automatic_opponents(self, state: BaseModel) -> list[Opponent]:
        """The opponents the rules play in this game (see :func:`automatic_opponents`)."""
        checked = self._state(state)
        return [] if self._automatic_opponents is None else self._automatic_opponents(checked)

    def bot(
        self,
        view: BaseModel,
        legal_actions: list[Any],
        rng: random.Random,
        level: str = "normal",
        *,
        seat: Seat | None = None,
        budget: SearchBudget | None = None,
    ) -> Any:
        """One of ``legal_actions``: a uniform one at level "random", a search over
        :meth:`determinize` at "strong", else the level's policy; each reads only ``view``.
        Raises :class:`IllegalAction` when there is none to take."""
        if not legal_actions:
            raise IllegalAction("the bot was asked to act with no legal action", "no_legal_action")
        if level == "random":
            return random_bot(legal_actions, rng)
        if not isinstance(view, self._view_model):
            raise TypeError(
                f"{self.info.id}: expected a {self._view_model.__name__}, got {type(view).__name__}"
            )
        if level == STRONG and self._searches:
            if seat is None:
                raise ValueError(f"{self.info.id}: the strong bot needs the seat it plays")
            return choose(self, view, seat, legal_actions, rng, budget or SearchBudget())
        policy = self._bots.get(level)
        if policy is None:
            raise ValueError(f"{self.info.id} has no bot level {level!r}: {self.info.bot_levels}")
        return policy(view, legal_actions, rng)

    def determinize(self, view: BaseModel, seat: Seat, rng: random.Random) -> StateT:
        """A complete state whose view for ``seat`` is ``view`` (see :meth:`Engine.determinize`)."""
        if self._determinize is None:
            raise NotImplementedError(f"{self.info.id} does not determinize its views")
        if not isinstance(view, self._view_model):
            raise TypeError(
                f"{self.info.id}: expected a {self._view_model.__name__}, got {type(view).__name__}"
            )
        return self._determinize(view, seat, rng)

    def evaluate(self, state: BaseModel) -> list[float]:
        """Each seat's prospects in [0, 1] (see :meth:`Engine.evaluate`)."""
        if self._evaluate is None:
            raise NotImplementedError(f"{self.info.id} does not evaluate its states")
        return self._evaluate(self._state(state))

    def playout_view(self, state: BaseModel, seat: Seat) -> ViewT:
        """What a bot reads for ``seat`` in a search's playout of a dealt world: the view,
        or the game's lighter form of it, without what only people read (every level
        chooses from it as from the view). Never shown to anyone."""
        return self._playout_view(self._state(state), seat)

    @property
    def rules(self) -> Rules[StateT, OptionsT, ActionT]:
        """The game's pure rules, unguarded: for a search that only ever passes them the
        game's own states and the actions they listed."""
        return self._rules

    def message(self, item: BaseModel) -> Message:
        """What people read about an action, an event or the game's :class:`Result`."""
        return self._message(item)

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        """:meth:`message` as text in ``locale``, seats by number ("seat 2")."""
        return render(self._message(item), locale)

    def undoable(self, state: BaseModel, seat: Seat, action: Any) -> bool:
        """Whether ``seat`` may take ``action`` back right after taking it in ``state``.

        Only one of the game's action models can have been taken, so anything else
        (raw JSON, a stranger's model) has nothing to take back.
        """
        checked = self._state(state)
        if not isinstance(action, self._action_models):
            return False
        return self._undoable(checked, seat, action)

    def why_final(self, state: BaseModel, seat: Seat, action: Any) -> Refusal | None:
        """The rule that makes ``action`` final (see :func:`why_final`)."""
        checked = self._state(state)
        if self._why_final is None or not isinstance(action, self._action_models):
            return None
        return self._why_final(checked, seat, action)


def union_models(union: Any) -> tuple[type[Any], ...]:
    """The model classes of a (discriminated) union of models, in their declared order.

    >>> class A(BaseModel): pass
    >>> class B(BaseModel): pass
    >>> [m.__name__ for m in union_models(Annotated[A | B, Field(discriminator=None)])]
    ['A', 'B']
    """
    origin = get_origin(union)
    if origin is Annotated:
        return union_models(get_args(union)[0])
    if origin is Union or origin is types.UnionType:
        return tuple(model for member in get_args(union) for model in union_models(member))
    if isinstance(union, type) and issubclass(union, BaseModel):
        return (union,)
    raise TypeError(f"not a union of models: {union!r}")


# --------------------------------------------------------------------------- helpers


def action_adapter(engine: Engine) -> TypeAdapter[Any]:
    """Return a (cached) TypeAdapter for the engine's action union."""
    cache: dict[int, TypeAdapter[Any]] = _ADAPTERS
    key = id(engine)
    if key not in cache:
        cache[key] = TypeAdapter(engine.Action)
    return cache[key]


_ADAPTERS: dict[int, TypeAdapter[Any]] = {}
_EVENT_ADAPTERS: dict[int, TypeAdapter[Any]] = {}


def parse_event(engine: Engine, data: dict[str, Any]) -> BaseModel:
    """Rebuild one of the engine's event models from its stored JSON (``visible_to`` included)."""
    key = id(engine)
    if key not in _EVENT_ADAPTERS:
        _EVENT_ADAPTERS[key] = TypeAdapter(engine.Event)
    event: BaseModel = _EVENT_ADAPTERS[key].validate_python(data)
    return event


def redact_log(
    engine: Engine, state: BaseModel, events: list[dict[str, Any]], seat: Seat | None
) -> list[dict[str, Any]]:
    """What of some logged events may be shown to ``seat`` now that the game is at ``state``.

    ``events`` are stored events (JSON, possibly with extra keys such as ``version`` and
    ``actor``) that ``seat`` may see, in log order, the newest being those that led to
    ``state`` (or later ones). Every path that shows logged events while a game runs
    (the log, a resync, a repeated action's answer) passes them through here. An engine
    may define ``redact_log(state, events, seat)``, returning the events it still lets be
    shown (fewer, or with fields narrowed; it never mutates its input); without it the
    events are shown as they were logged.
    """
    hook: Callable[..., list[dict[str, Any]]] | None = getattr(engine, "redact_log", None)
    return events if hook is None else hook(state, events, seat)


def automatic_opponents(engine: Engine, state: BaseModel) -> list[Opponent]:
    """The automatic opponents of a game at ``state``, each with its score so far: those its
    result lists in ``others`` (Ginkgopolis' Hal, MINE!'s dummy director), for a result the
    table makes before the rules end the game (app.tables.outcomes.early_result). Their
    ``place`` is 1: nobody has been ranked yet. An engine without the hook has none."""
    hook: Callable[..., list[Opponent]] | None = getattr(engine, "automatic_opponents", None)
    return [] if hook is None else hook(state)


def why_final(engine: Engine, state: BaseModel, seat: Seat, action: Any) -> Refusal | None:
    """Why ``seat`` may not take back ``action``, taken in ``state``, when the game's rules
    say so in their own words: a bet that is final once placed is not "hidden information
    revealed". None when the engine has no such rule for it (or no ``why_final`` hook):
    the server then gives the general reason (``not_undoable`` ``final``)."""
    hook: Callable[..., Refusal | None] | None = getattr(engine, "why_final", None)
    return None if hook is None else hook(state, seat, action)


def describe_event(engine: Engine, data: dict[str, Any], locale: Locale) -> str:
    """The engine's readable line for a stored event."""
    return engine.describe(parse_event(engine, data), locale)


def describe_result(engine: Engine, data: Mapping[str, Any], locale: Locale) -> str:
    """The engine's explanation of the ties of a stored result ("" when there is none)."""
    return engine.describe(Result.model_validate(data), locale)


def by_seat(values: Mapping[Any, T]) -> dict[Seat, T]:
    """A mapping keyed by seat (or director) with int keys, as JSON may have left them strings.

    >>> by_seat({"0": 3, 1: 4})
    {0: 3, 1: 4}
    """
    return {int(key): value for key, value in values.items()}


def parse_action(engine: Engine, data: Any) -> Any:
    """Validate a client's JSON action into one of the engine's action models, strictly.

    Strict JSON-mode validation accepts exactly what ``action_schema`` publishes: an
    integer is a JSON integer (not ``"3"``, ``true`` or ``3.0``), a boolean is ``true`` or
    ``false`` (not ``"yes"`` or ``1``). Every element of ``legal_actions`` round-trips.
    Raises pydantic's ``ValidationError`` naming the field.
    """
    return action_adapter(engine).validate_json(to_json(data), strict=True)


def parse_options(engine: Engine, data: Any) -> BaseModel:
    """Validate a client's JSON table options into the engine's ``Options``, strictly
    (see :func:`parse_action`). Raises pydantic's ``ValidationError`` naming the field."""
    options: BaseModel = engine.Options.model_validate_json(to_json(data), strict=True)
    return options


def dump(value: BaseModel) -> dict[str, Any]:
    """JSON-ready dict of a model (the one serialisation used everywhere)."""
    return value.model_dump(mode="json")


def random_bot(legal_actions: list[Any], rng: random.Random) -> Any:
    """The 'random' bot level shared by every game: a uniform legal action."""
    if not legal_actions:
        raise IllegalAction("the bot was asked to act with no legal action", "no_legal_action")
    return legal_actions[rng.randrange(len(legal_actions))]


def rank_by_score(
    scores: dict[Seat, int],
    tiebreak_keys: dict[Seat, tuple[int, ...]] | None = None,
) -> tuple[list[Seat], dict[Seat, int]]:
    """Rank seats by score (then by tie-break keys, higher is better); ties share a place.

    Returns ``(ranking, places)``: ranking best first (ties in seat order), and the
    1-based place of every seat (standard competition ranking: 1, 1, 3).

    >>> rank_by_score({0: 5, 1: 9, 2: 5})
    ([1, 0, 2], {1: 1, 0: 2, 2: 2})
    """

    def key(seat: Seat) -> tuple[int, ...]:
        extra = tiebreak_keys.get(seat, ()) if tiebreak_keys else ()
        return (scores[seat], *extra)

    ranking = sorted(scores, key=lambda s: (tuple(-k for k in key(s)), s))
    places: dict[Seat, int] = {}
    for index, seat in enumerate(ranking):
        if index > 0 and key(seat) == key(ranking[index - 1]):
            places[seat] = places[ranking[index - 1]]
        else:
            places[seat] = index + 1
    return ranking, places
