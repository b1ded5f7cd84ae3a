"""Ginkgopolis translation keys built at run time (checked by test_i18n_keys.py)."""

_COLOURS = ("R", "Y", "B")
_PHASES = ("draft", "new_hand", "select", "resolve", "contribute", "over")
_TRIGGERS = ("exploit", "urbanize", "build_up")
FAMILIES: dict[str, tuple[str, ...]] = {
    "ginkgopolis.colour.{}": _COLOURS,
    "ginkgopolis.colour_f.{}": _COLOURS,
    "ginkgopolis.phase.{}": _PHASES,
    "ginkgopolis.step.{}": _PHASES,
    "ginkgopolis.trigger.{}": _TRIGGERS,
    "ginkgopolis.char.{}": tuple(f"{c}.{t}" for c in _COLOURS for t in _TRIGGERS),
    "ginkgopolis.item.{}": ("resource", "sp", "tile"),
    "ginkgopolis.take.{}": ("resource", "tile"),
    "ginkgopolis.hint.take_{}": ("resource", "tile"),
    "ginkgopolis.{}": ("keep_hand", "new_hand"),
    "ginkgopolis.score.{}": ("sp", "districts", "cards", "tokens", "total"),
    "ginkgopolis.reason.{}": ("start", "neighbour", "refill", "bonus"),
    "ginkgopolis.end.{}": (
        "second_exhaustion",
        "all_resources",
        "solo_exhaustion",
        "hal_cannot_pay",
    ),
    "ginkgopolis.skip.{}": ("cannot_pay", "no_tile"),
    "ginkgopolis.help.{}": (
        "title",
        "goal",
        "select",
        "exploit",
        "urbanize",
        "build",
        "colours",
        "end",
        "hal",
        "pass",
    ),
    # the result's automatic opponents (static/js/result.js)
    "ginkgopolis.participant.{}": ("hal",),
}
