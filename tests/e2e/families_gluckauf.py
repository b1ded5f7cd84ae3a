"""Glück Auf translation keys built at run time (checked by test_i18n_keys.py)."""

_COLOURS = ("Y", "B", "G", "K")
_PHASES = ("draft", "place", "choose_coal", "keep", "choose_end", "return", "mining", "two_for_one")
_ASKED = ("draft", "place", "mining", "choose_coal", "keep", "choose_end", "return")

FAMILIES: dict[str, tuple[str, ...]] = {
    "gluckauf.colour.{}": _COLOURS,
    "gluckauf.letter.{}": _COLOURS,
    "gluckauf.transport.{}": ("W", "C", "T", "L"),
    "gluckauf.side.{}": ("light", "dark"),
    "gluckauf.phase.{}": (*_PHASES, "over"),
    "gluckauf.q.{}": _ASKED,
    "gluckauf.w.{}": _ASKED,
    "gluckauf.h.{}": ("keep", "choose_end", "return"),
    "gluckauf.kind.{}": ("tile", "order"),
    "gluckauf.end_is.{}": ("top", "bottom"),
    "gluckauf.step.{}": ("keep", "end", "return"),
    "gluckauf.act.add_cube_{}": ("cage", "storage"),
    "gluckauf.cat.{}": ("colour", "transport", "empty"),
    "gluckauf.final.{}": (
        "money_vp",
        "coal_vp",
        "order_penalty",
        "imbalance_penalty",
        "money_left",
        "total",
    ),
    "gluckauf.help.{}": ("goal", "place", "factory", "mining", "orders", "scoring", "end"),
    # The tooltips of legal actions (static/js/games/gluckauf.js actionHint).
    "gluckauf.hint.end_{}": ("top", "bottom"),
    "gluckauf.hint.add_cube_{}": ("cage", "storage"),
}
