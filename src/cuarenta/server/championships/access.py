"""Who may do what in a championship: the organiser's and the judge's tokens, a pair's token, the
registration code (all kept hashed, compared in constant time), and a new pair's row.

>>> from cuarenta.server.store import championships as cstore, hash_token
>>> row = cstore.ChampionshipRow("c", "n", "{}", 1, hash_token("o"), hash_token("j"), hash_token("r"))
>>> role_of(row, "j"), role_of(row, "x"), code_matches(row, "r")
('judge', None, True)
"""

from __future__ import annotations

from cuarenta.server.authority.seats import same_token
from cuarenta.server.championships.loaded import Loaded
from cuarenta.server.championships.problems import ChampionshipProblem
from cuarenta.server.store import championships as cstore
from cuarenta.server.store import hash_token


def role_of(row: cstore.ChampionshipRow, token: str | None) -> str | None:
    """``"organiser"``, ``"judge"`` or ``None`` for a bearer token."""
    if token is None:
        return None
    digest = hash_token(token)
    if same_token(digest, row.organiser_hash):
        return "organiser"
    if same_token(digest, row.judge_hash):
        return "judge"
    return None


def pair_with(loaded: Loaded, token: str) -> str:
    """The pair whose token this is (refused: ``bad_championship_token``)."""
    digest = hash_token(token)
    for pair in loaded.pairs.values():
        if pair.token_hash is not None and same_token(digest, pair.token_hash):
            return pair.pair
    raise ChampionshipProblem("bad_championship_token", "that token is no pair's of this championship")


def code_matches(row: cstore.ChampionshipRow, code: str) -> bool:
    """Whether ``code`` is the championship's registration code."""
    return same_token(hash_token(code), row.register_hash)


def new_pair(loaded: Loaded, token: str | None, computer: str | None, max_pairs: int) -> cstore.PairRow:
    """The row of the next pair to register (its id the next), made from the championship as it is under
    its lock: refused for a computer pair of a rated championship, and past ``max_pairs`` pairs."""
    champ = loaded.champ
    if computer is not None and champ.settings.rated:
        raise ChampionshipProblem(
            "rated_computer",
            "a rated championship is for pairs of people: the ratings are theirs",
        )
    if max_pairs and len(champ.pairs) >= max_pairs and champ.status == "registering":
        raise ChampionshipProblem(
            "championship_full",
            f"this championship has {len(champ.pairs)} pairs, the most this server takes "
            f"(cuarenta serve --championship-pairs {max_pairs})",
            params={"pairs": max_pairs},
        )
    return cstore.PairRow(f"p{len(champ.pairs) + 1}", None if token is None else hash_token(token), computer)


__all__ = ["code_matches", "new_pair", "pair_with", "role_of"]
