"""Ginkgopolis events: past tense, with ``visible_to`` for the private ones (rules §13).

``player`` is the index in ``state.players``; in the solo game index 1 is Hal and
such events carry ``hal=True``. Private events (a seat's own cards or tiles) are
restricted to that seat; public events carry only what §13 makes public.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import Event


class NeighbourBuilding(BaseModel):
    """A building next to a new site when it was urbanized (public: the city is public, §13)."""

    model_config = ConfigDict(frozen=True)

    cell: tuple[int, int]
    top: str
    height: int


class DistrictScore(BaseModel):
    """One district in one player's final score (§12.1): why it gave these points."""

    model_config = ConfigDict(frozen=True)

    colour: str
    buildings: int = Field(description="buildings in the district")
    resources: int = Field(description="this player's resources there (r_p)")
    total: int = Field(description="all players' resources there (T)")
    place: int = Field(description="1 = majority, 2 = second, 3+ = nothing")
    alone: bool = Field(default=False, description="the only player there: scores 2 × r_p")
    points: int


class CardScore(BaseModel):
    """One end-game building card (10-20) in one player's final score (§12.2)."""

    model_config = ConfigDict(frozen=True)

    card: str
    count: int = Field(description="how many buildings or cards it counted (1 for card 20)")
    per: int = Field(description="SP per counted item (9 for card 20)")
    points: int


class GameSetUp(Event):
    """Setup is complete (§5); characters are listed unless a draft is to come."""

    type: Literal["game_set_up"] = "game_set_up"
    n_players: int
    first_player: int
    characters: dict[int, list[str]]
    supply_count: int
    deck_count: int


class DraftStarted(Event):
    """A character draft began (§16.2), at the start of the game: each seat was dealt a
    pile of ``pile_size`` characters, face down (its own in :class:`DraftPileReceived`)."""

    type: Literal["draft_started"] = "draft_started"
    n_players: int
    first_player: int
    pile_size: int


class DraftPileReceived(Event):
    """Private: the characters of the draft pile a seat now holds, dealt (``draft_round`` 1)
    or passed on to it (2 and 3, §16.2)."""

    type: Literal["draft_pile_received"] = "draft_pile_received"
    player: int
    characters: list[str]
    draft_round: int


class DraftPicked(Event):
    """A seat kept a character in the draft (private to that seat)."""

    type: Literal["draft_picked"] = "draft_picked"
    player: int
    character: str


class ChoiceCommitted(Event):
    """A seat committed a simultaneous choice; only the fact (and an attached tile) is public."""

    type: Literal["choice_committed"] = "choice_committed"
    player: int
    step: Literal["draft", "new_hand", "select", "contribute"]
    tile_attached: bool = False


class DraftCompleted(Event):
    """The draft is over; every kept character is now public (§16.2)."""

    type: Literal["draft_completed"] = "draft_completed"
    characters: dict[int, list[str]]


class NewHandChosen(Event):
    """A seat's own New Hand declaration (private until processed)."""

    type: Literal["new_hand_chosen"] = "new_hand_chosen"
    player: int
    use: bool


class NewHandUsed(Event):
    """A seat spent a New Hand token and discarded its hand (§6.1.0)."""

    type: Literal["new_hand_used"] = "new_hand_used"
    player: int
    tokens_left: int


class CardsDrawn(Event):
    """Public: how many cards a player drew."""

    type: Literal["cards_drawn"] = "cards_drawn"
    player: int
    count: int


class CardsReceived(Event):
    """Private: the cards a seat now holds after drawing or receiving a pile."""

    type: Literal["cards_received"] = "cards_received"
    player: int
    cards: list[str]


class RoundStarted(Event):
    """A new round began (§6)."""

    type: Literal["round_started"] = "round_started"
    round: int
    first_player: int


class HandsPassed(Event):
    """Passing piles travelled left; the first player card moved (§6.3)."""

    type: Literal["hands_passed"] = "hands_passed"
    first_player: int


class SelectionMade(Event):
    """Private: the card (and tile) a seat selected."""

    type: Literal["selection_made"] = "selection_made"
    player: int
    card: str
    tile: str | None


class ActionRevealed(Event):
    """A selection is revealed at its resolution (§6.2); Hal's card too (``hal``)."""

    type: Literal["action_revealed"] = "action_revealed"
    player: int
    card: str
    tile: str | None
    action: Literal["exploit", "urbanize", "build_up"]
    hal: bool = False


class ItemsGained(Event):
    """Public: items a player gained (tile identities are private, see TilesReceived)."""

    type: Literal["items_gained"] = "items_gained"
    player: int
    resources: int = 0
    sp: int = 0
    tiles: int = 0
    reason: str
    hal: bool = False
    # The building exploited (its top tile and cell), for an exploit or a neighbour gain.
    building: str | None = None
    cell: tuple[int, int] | None = None


class TilesReceived(Event):
    """Private: the identities of the tiles a seat drew behind its screen."""

    type: Literal["tiles_received"] = "tiles_received"
    player: int
    tiles: list[str]


class BuildingUrbanized(Event):
    """A new building was placed at a token's site (§7.2)."""

    type: Literal["building_urbanized"] = "building_urbanized"
    player: int
    cell: tuple[int, int]
    tile: str
    letter: str
    hal: bool = False
    # The orthogonal neighbours it exploits next, in the order N, E, S, W (§7.2 step 6).
    neighbours: list[NeighbourBuilding] = Field(default_factory=list)


class TokenMoved(Event):
    """An urbanization token moved (§7.2 step 5)."""

    type: Literal["token_moved"] = "token_moved"
    letter: str
    cell: tuple[int, int]


class BuiltUp(Event):
    """A tile was stacked on a building, which changed hands (§7.3)."""

    type: Literal["built_up"] = "built_up"
    player: int
    cell: tuple[int, int]
    tile: str
    card: str
    height: int
    sp_cost: int
    colour_cost: int
    hal: bool = False


class ResourcesReturned(Event):
    """The resources on a covered building went back to its owner (§7.3 step 2)."""

    type: Literal["resources_returned"] = "resources_returned"
    player: int
    count: int
    sp: int
    hal: bool = False


class DeckRebuilt(Event):
    """The deck was rebuilt from the discard pile (§9)."""

    type: Literal["deck_rebuilt"] = "deck_rebuilt"
    pending_cards: list[str]
    deck_count: int
    set_aside: int


class TileSupplyExhausted(Event):
    """The tile supply ran out (§10)."""

    type: Literal["tile_supply_exhausted"] = "tile_supply_exhausted"
    first: bool


class ContributionMade(Event):
    """Private: a tile a seat set aside for the refill."""

    type: Literal["contribution_made"] = "contribution_made"
    player: int
    tile: str


class ContributionsRevealed(Event):
    """All refill contributions revealed face up and shuffled into the supply (§10)."""

    type: Literal["contributions_revealed"] = "contributions_revealed"
    tiles: dict[int, list[str]]
    supply_count: int


class EndTriggered(Event):
    """The end of the game was triggered; the round is completed first (§11)."""

    type: Literal["end_triggered"] = "end_triggered"
    reason: Literal["second_exhaustion", "all_resources", "solo_exhaustion", "hal_cannot_pay"]
    player: int | None = None


class HalCardDrawn(Event):
    """Public: Hal drew his card of the round face down (§15.1); nobody sees which until
    he plays it (ActionRevealed with ``hal``)."""

    type: Literal["hal_card_drawn"] = "hal_card_drawn"
    player: int = Field(description="Hal's index in the players (1)")
    count: int = 1


class HalSkipped(Event):
    """Hal could not act this round; his card went to the discard pile (§15, D21)."""

    type: Literal["hal_skipped"] = "hal_skipped"
    card: str
    reason: Literal["cannot_pay", "no_tile"]


class PlayerScored(Event):
    """The final score of one player (§12)."""

    type: Literal["player_scored"] = "player_scored"
    player: int
    sp: int
    districts: int
    cards: int
    tokens: int
    total: int
    hal: bool = False
    # The steps behind the sums (older stored events lack them and show only the sums).
    district_lines: list[DistrictScore] = Field(default_factory=list)
    card_lines: list[CardScore] = Field(default_factory=list)
    new_hand_tokens: int = 0


class GameEnded(Event):
    """The game is over (§12.3)."""

    type: Literal["game_ended"] = "game_ended"
    winners: list[int]
    hal_won: bool = False


GinkgopolisEvent = (
    GameSetUp
    | DraftStarted
    | DraftPileReceived
    | DraftPicked
    | ChoiceCommitted
    | DraftCompleted
    | NewHandChosen
    | NewHandUsed
    | CardsDrawn
    | CardsReceived
    | RoundStarted
    | HandsPassed
    | SelectionMade
    | ActionRevealed
    | ItemsGained
    | TilesReceived
    | BuildingUrbanized
    | TokenMoved
    | BuiltUp
    | ResourcesReturned
    | DeckRebuilt
    | TileSupplyExhausted
    | ContributionMade
    | ContributionsRevealed
    | EndTriggered
    | HalCardDrawn
    | HalSkipped
    | PlayerScored
    | GameEnded
)

#: The discriminated union of every event, to rebuild a stored event (``base.parse_event``).
EventUnion = Annotated[GinkgopolisEvent, Field(discriminator="type")]
