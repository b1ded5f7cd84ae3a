"""Luz translation keys built at run time (checked by test_i18n_keys.py)."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "luz.colour.{}": ("R", "Y", "G", "B", "P"),
    "luz.letter.{}": ("R", "Y", "G", "B", "P"),
    "luz.phase.{}": ("choosing_high_end", "betting", "playing", "finished"),
    "luz.high_end.{}": ("left", "right"),
    "luz.side.{}": ("left", "right"),
    "luz.help.{}": ("goal", "hand", "bet", "play", "trump", "no_trump", "score"),
}
