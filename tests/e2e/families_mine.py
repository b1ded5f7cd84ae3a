"""MINE! translation keys built at run time (checked by test_i18n_keys.py)."""

_COLOURS = ("c0", "c1", "c2", "c3", "c4", "c5")
_KINDS = ("miner", "pit_builder", "foreman", "watchman", "brawler", "engineer")
_EVENTS = (
    "firedamp",
    "safety_lamp",
    "big_order",
    "rich_seam",
    "hiring_day",
    "strike",
    "cage_breakdown",
    "gendarmes",
)

FAMILIES: dict[str, tuple[str, ...]] = {
    "mine.colour.{}": _COLOURS,
    "mine.kind.{}": _KINDS + _EVENTS,
    "mine.effect.{}": _EVENTS,
    "mine.effect_short.{}": _EVENTS,
    "mine.loc.{}": ("events", "shelter", "watchtower", "expedition", "mine", "recruitment"),
    "mine.order.{}": ("events", "shelter", "watchtower", "expedition", "mine", "recruitment"),
    "mine.hint.{}": ("events", "shelter", "watchtower", "mine", "recruitment"),
    "mine.stat.{}": ("atk", "def", "ext", "rec"),
    "mine.phase.{}": ("placement", "discard", "over"),
    "mine.end.{}": ("score_21", "round_6"),
    "mine.raid.{}": ("succeeded", "failed", "cancelled"),
    "mine.line.placement_passed.{}": ("chose", "empty_hand", "dummy_plan_done"),
    "mine.step.{}": ("card", "location"),
    "mine.help.{}": (
        "title",
        "goal",
        "place",
        "raid",
        "order",
        "sell",
        "mine",
        "recruit",
        "colours",
    ),
    # the result's automatic opponents (static/js/result.js)
    "mine.participant.{}": ("dummy",),
}
