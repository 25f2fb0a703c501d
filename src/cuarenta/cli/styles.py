"""How the terminal programs colour what they print (rich styles), shared by the demo and the game.

>>> EVENT_STYLES["caida"], EVENT_STYLES.get("play")
('bold red', None)
"""

from __future__ import annotations

from typing import Final

#: The style of each event's line, by ``Event.kind`` (plays are not coloured).
EVENT_STYLES: Final[dict[str, str]] = {
    "dealer_draw": "bold",
    "deal": "bold cyan",
    "ronda": "magenta",
    "four_of_a_kind": "bold magenta",
    "caida": "bold red",
    "caida_limpia": "bold red",
    "caida_ronda": "bold red",
    "limpia": "bold blue",
    "claim": "yellow",
    "hand_end": "bold",
    "carton": "blue",
    "chica_won": "bold green",
    "zapatero": "bold yellow",
    "mesa_won": "bold green",
}
#: Sayings, and the quieter lines (scores, counts).
SAYING_STYLE: Final = "italic yellow"
DIM: Final = "dim"
