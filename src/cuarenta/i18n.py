"""Texts of the game in Spanish and English: messages, names, event descriptions and sayings.

Everything here returns strings and prints nothing, so the terminal demo, the
terminal game and the web app share one set of words. Two languages are
supported, ``"es"`` (the default; the game's own words) and ``"en"``, which
keeps the Spanish terms of the game (caída, limpia, cartón …) and explains them.

>>> from cuarenta.i18n import t, tantos_perros, points_text
>>> t("points_for", "es", points=4, team="Jugador 2")
'+4 para Jugador 2'
>>> tantos_perros(14)
(1, 2)
>>> points_text(14, "es")
'14 = 1 perro y 2 tantos'

Events are described for people, with seats named ``Jugador 1`` … (``Player 1``
… in English) and teams ``Equipo A``/``Equipo B`` — or the two players' names in
a game of two:

>>> from cuarenta import Card
>>> from cuarenta.events import Caida
>>> describe_event(Caida(seat=1, team=1, card=Card("5s"), victim=0, points=2), "es")
'¡Caída! Jugador 2 le cae al 5♠ de Jugador 1: +2 para Jugador 2.'

The traditional sayings (seed 000, "Dichos del cuarenta") are attached to the
events they fit; in English the Spanish saying comes with a short gloss:

>>> saying_for(Caida(seat=1, team=1, card=Card("3s"), victim=0, points=2), SayingContext(), "es")
'¡Mosero!'
>>> saying_for(Caida(seat=1, team=1, card=Card("3s"), victim=0, points=2), SayingContext(), "en")
'“¡Mosero!” (a caída made with a 3)'
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from cuarenta.cards import CARDS, NUM_CARDS, RANK_CHARS, SUIT_NAMES_EN, SUIT_NAMES_ES, Card
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    ClaimMade,
    Deal,
    DealerDraw,
    Event,
    FourOfAKind,
    HandEnd,
    Limpia,
    MesaWon,
    Play,
    Ronda,
    Zapatero,
)
from cuarenta.moves import Move
from cuarenta.rules import Rules

#: Supported languages; the first is the default.
LANGS: Final = ("es", "en")
DEFAULT_LANG: Final = "es"

#: A caída or limpia that takes at least this many table cards is a *capariche*.
CAPARICHE_CARDS: Final = 5

# -- the message catalogue ------------------------------------------------------------------------
# Every key exists in both languages with the same {placeholders} (tests check it).
MESSAGES: Final[dict[str, dict[str, str]]] = {
    "es": {
        # names
        "seat_name": "Jugador {n}",
        "team_name": "Equipo {letter}",
        "card_name": "{rank} de {suit}",
        "empty_table": "vacía",
        "and": "y",
        "list_sep": ", ",
        # points
        "points_for": "+{points} para {team}",
        "no_points": "no suma",
        "perros": "{n} perro|{n} perros",
        "tantos": "{n} tanto|{n} tantos",
        "points_equal": "{points} = {words}",
        "score_entry": "{team} {points}",
        "score_line": "Marcador: {scores}",
        # notes: why the rules reduced a score
        "note_treinta_y_ocho": "38 que no juega, R20",
        "note_treinta_y_ocho_caida": "con 38 la caída vale solo 2: 38 que no juega, R20",
        "note_ronda_limit": "pasado el límite ya no se cobra ronda, R19",
        "note_ronda_limit_caida": "vale como caída simple: pasado el límite no hay caída a la ronda, R19",
        "note_generic": "regla {note}",
        # events
        "ev_dealer_draw": "Sorteo para dar: {draws}. Reparte {dealer}.",
        "ev_dealer_draw_card": "{seat} saca {card}",
        "ev_dealer_draw_again": "; empate, se vuelve a sacar: ",
        "ev_deal": "Mano {hand}, reparto {deal} de {deals}: reparte {dealer}.",
        "ev_ronda": "¡Ronda! {seat} tiene tres {rank}: {points}.",
        "ev_four_wins": "¡Cuatro {rank} en la mano de {seat}! {team} gana la chica.",
        "ev_four_points": "¡Doble ronda! {seat} tiene cuatro {rank}: {points}.",
        "ev_play_drop": "{seat} juega {card} y no lleva nada.",
        "ev_play_take": "{seat} juega {card} y lleva {base}.",
        "ev_play_take_run": "{seat} juega {card} y lleva {base}, y en escalera {run}.",
        "ev_caida": "¡Caída! {seat} le cae al {card} de {victim}: {points}.",
        "ev_limpia": "¡Limpia! {seat} deja la mesa vacía: {points}.",
        "ev_caida_limpia": (
            "¡Caída y limpia! {seat} le cae al {card} de {victim} y deja la mesa vacía: {points}."
        ),
        "ev_caida_ronda": "¡Caída a la ronda! {seat} le cae al {card} de la ronda de {victim}: {points}.",
        "ev_caida_ronda_limpia": (
            "¡Caída a la ronda y limpia! {seat} le cae al {card} de la ronda de {victim} "
            "y deja la mesa vacía: {points}."
        ),
        "ev_claim": "{seat} reclama {cards}, que {victim} no se llevó.",
        "ev_hand_end": "Fin de la mano. Cartas levantadas: {piles}. {leftovers}",
        "ev_hand_end_pile": "{team} {cards}",
        "ev_hand_end_leftovers": "En la mesa quedan {cards}, que no son de nadie.",
        "ev_hand_end_clean": "La mesa quedó vacía.",
        "ev_carton": "Cartón de {team}: {cards} cartas, {points}.",
        "ev_carton_most": "{team} levantó más cartas ({cards}): {points}.",
        "ev_carton_dos_por_dar": "Dos por dar: {team}, que dio, levantó más cartas ({cards}): {points}.",
        "ev_carton_none": "{team}: {cards} cartas, sin puntos de cartón.",
        "ev_chica_won": "¡{team} gana la chica {chica}, {won} a {lost}!",
        "ev_chica_won_four": "¡{team} gana la chica {chica} con cuatro cartas iguales ({won} a {lost})!",
        "ev_chica_won_caidas": "¡{team} gana la chica {chica} con cuatro caídas seguidas ({won} a {lost})!",
        "ev_zapatero": "{team} se queda zapatero con {points} puntos.",
        "ev_platillo": "{team} se queda platillo: ¡ni un solo punto!",
        "ev_mesa_won": "¡{team} gana la mesa! Chicas: {won} a {lost}.",
        "ev_mesa_won_zapatero": "¡{team} gana la mesa por zapatero! Chicas: {won} a {lost}.",
        "ev_unknown": "Evento: {kind}.",
        # the demo
        "demo_title": "Cuarenta: partida de demostración",
        "demo_setup": "Semilla {seed} · {players} jugadores · reglas {preset} · {scope}",
        "demo_scope_chica": "una chica",
        "demo_scope_mesa": "la mesa completa",
        "demo_random": "Cada jugador elige al azar entre sus jugadas legales.",
        "demo_hand": "{seat} recibe {cards}",
        "demo_table": "Mesa: {cards}",
        "demo_chica_header": "Chica {n}",
        "demo_end": "Fin de la demostración ({moves} jugadas).",
        # the terminal game (cuarenta play)
        "play_title": "Cuarenta: tú contra la computadora",
        "play_title_pairs": "Cuarenta en parejas: tú y la computadora contra la computadora",
        "play_setup": "Semilla {seed} · {players} jugadores · reglas {preset} · nivel {level}",
        "play_goal": "Chicas a {target} puntos; gana la mesa quien gane {chicas}.",
        "play_you": "Jugador 1 (tú)",
        "play_computer": "Jugador {n} (computadora)",
        "play_partner": "Jugador {n} (compañero)",
        "play_opponent": "Jugador {n} (rival)",
        "play_teams": "{team_a}: tú y {partner}. {team_b}: {first} y {second}.",
        "play_howto": (
            "En tu turno escribe el número de la carta (1 a 5), la carta (como 7h) o una jugada "
            "completa (como 7h x3c+4d). ? da una pista; q sale."
        ),
        "play_chicas": "Chicas ganadas: {chicas}",
        "play_counts": "Cartas en mano: {counts} · en el mazo: {stock}",
        "play_last_drop": "({card} se acaba de echar: llevarla por pareja es caída)",
        "play_hand": "Tu mano: {cards}",
        "play_prompt": "Tu turno: ¿qué carta juegas? (1-{last}, ? pista, q salir) > ",
        "play_choose_header": "¿Qué haces con {card}?",
        "play_choose_prompt": "¿Cuál? (1-{last}, 0 para elegir otra carta) > ",
        "play_opt_take": "llevar {base}",
        "play_opt_take_run": "llevar {base} y en escalera {run}",
        "play_opt_drop": "no llevar nada y dejar {card} en la mesa",
        "play_opt_caida": "es caída",
        "play_opt_limpia": "deja la mesa limpia",
        "play_opt_short": "deja {cards}, que el siguiente puede reclamar",
        "play_claim_header": (
            "{victim} no se llevó todo lo que podía. Antes de jugar puedes reclamarlo (R12):"
        ),
        "play_opt_claim": "reclamar {cards}",
        "play_opt_no_claim": "no reclamar y jugar",
        "play_claim_prompt": "¿Reclamas? (1-{last}) > ",
        "play_quit": "Partida abandonada. ¡Hasta la próxima!",
        "play_eof": "Se acabó la entrada: la partida queda sin terminar. ¡Hasta la próxima!",
        "play_interrupted": "Partida interrumpida (Ctrl-C). ¡Hasta la próxima!",
        "err_number": "No hay carta número {n}: elige de 1 a {last}.",
        "err_no_8910": "{text} no es una carta: en el cuarenta no hay 8, 9 ni 10.",
        "err_suit": "{text} no es una carta: el palo se escribe h, s, d o c (♥ ♠ ♦ ♣).",
        "err_unknown": (
            "No entiendo «{text}»: escribe el número de la carta (1 a {last}), la carta (como 7h), "
            "? para una pista o q para salir."
        ),
        "err_not_in_hand": "{card} no está en tu mano; tienes {hand}.",
        "err_move": "No entiendo la jugada «{text}»: {reason}",
        "err_illegal": "Esa jugada no vale: {reason}",
        "err_choice": "Elige un número de 1 a {last}, o 0 para volver.",
        "err_claim_choice": "Elige un número de 1 a {last}.",
        "hint_title": "Pista:",
        "hint_takes": "Llevan algo: {cards}",
        "hint_caidas": "Hacen caída: {cards}",
        "hint_limpias": "Hacen limpia: {cards}",
        "hint_risky": "Cuidado, dejarían caída o limpia fácil: {cards}",
        "hint_none": "ninguna",
        "hint_risk_caida": "{card} se queda en la mesa con {rank} sin salir ({count}): te pueden hacer caída",
        "hint_risk_caida_limpia": (
            "{card} se queda sola en la mesa con {rank} sin salir ({count}): te pueden hacer caída y limpia"
        ),
        "hint_risk_limpia": "tras jugar {card} la mesa queda con {table}, y quien tenga {ranks} la limpia",
        "or": "o",
        "result_title": "Resultado de la mesa",
        "result_chica": "Chica {n}: {scores}; gana {team}",
        "result_zapatero": "{team} queda zapatero",
        "result_platillo": "{team} queda platillo",
        "result_you_win": "¡Ganaste la mesa! Chicas: {won} a {lost}.",
        "result_team_win": "¡Tu equipo ganó la mesa! Chicas: {won} a {lost}.",
        "result_you_lose": "La computadora ganó la mesa. Chicas: {won} a {lost}.",
    },
    "en": {
        "seat_name": "Player {n}",
        "team_name": "Team {letter}",
        "card_name": "{rank} of {suit}",
        "empty_table": "empty",
        "and": "and",
        "list_sep": ", ",
        "points_for": "+{points} for {team}",
        "no_points": "no points",
        "perros": "{n} perro|{n} perros",
        "tantos": "{n} tanto|{n} tantos",
        "points_equal": "{points} = {words}",
        "score_entry": "{team} {points}",
        "score_line": "Score: {scores}",
        "note_treinta_y_ocho": "38 que no juega: at 38 only a caída scores, R20",
        "note_treinta_y_ocho_caida": "at 38 a caída is worth only 2: 38 que no juega, R20",
        "note_ronda_limit": "no ronda past the ronda limit, R19",
        "note_ronda_limit_caida": "a plain caída: no caída a la ronda past the ronda limit, R19",
        "note_generic": "rule {note}",
        "ev_dealer_draw": "Draw for the deal: {draws}. {dealer} deals.",
        "ev_dealer_draw_card": "{seat} draws {card}",
        "ev_dealer_draw_again": "; a tie, draw again: ",
        "ev_deal": "Hand {hand}, deal {deal} of {deals}: {dealer} deals.",
        "ev_ronda": "Ronda! {seat} holds three {rank}: {points}.",
        "ev_four_wins": "Four {rank} in the hand of {seat}! {team} wins the chica.",
        "ev_four_points": "Double ronda! {seat} holds four {rank}: {points}.",
        "ev_play_drop": "{seat} plays {card} and takes nothing.",
        "ev_play_take": "{seat} plays {card} and takes {base}.",
        "ev_play_take_run": "{seat} plays {card} and takes {base}, then the run {run}.",
        "ev_caida": "Caída! {seat} catches the {card} that {victim} just dropped: {points}.",
        "ev_limpia": "Limpia! {seat} clears the table: {points}.",
        "ev_caida_limpia": (
            "Caída y limpia! {seat} catches the {card} that {victim} just dropped and clears the table: "
            "{points}."
        ),
        "ev_caida_ronda": "Caída a la ronda! {seat} catches the {card} of {victim}'s ronda: {points}.",
        "ev_caida_ronda_limpia": (
            "Caída a la ronda y limpia! {seat} catches the {card} of {victim}'s ronda and clears the table: "
            "{points}."
        ),
        "ev_claim": "{seat} claims {cards}, which {victim} did not take.",
        "ev_hand_end": "End of the hand. Cards taken: {piles}. {leftovers}",
        "ev_hand_end_pile": "{team} {cards}",
        "ev_hand_end_leftovers": "Left on the table, belonging to nobody: {cards}.",
        "ev_hand_end_clean": "The table was left empty.",
        "ev_carton": "Cartón of {team}: {cards} cards, {points}.",
        "ev_carton_most": "{team} took more cards ({cards}): {points}.",
        "ev_carton_dos_por_dar": (
            "Dos por dar: {team}, the dealer's side, took more cards ({cards}): {points}."
        ),
        "ev_carton_none": "{team}: {cards} cards, no cartón points.",
        "ev_chica_won": "{team} wins chica {chica}, {won} to {lost}!",
        "ev_chica_won_four": "{team} wins chica {chica} with four of a kind ({won} to {lost})!",
        "ev_chica_won_caidas": "{team} wins chica {chica} with four caídas in a row ({won} to {lost})!",
        "ev_zapatero": "{team} is left zapatero, with only {points} points.",
        "ev_platillo": "{team} is left platillo: not a single point!",
        "ev_mesa_won": "{team} wins the mesa! Chicas: {won} to {lost}.",
        "ev_mesa_won_zapatero": "{team} wins the mesa by zapatero! Chicas: {won} to {lost}.",
        "ev_unknown": "Event: {kind}.",
        "demo_title": "Cuarenta: a demonstration game",
        "demo_setup": "Seed {seed} · {players} players · rules {preset} · {scope}",
        "demo_scope_chica": "one chica",
        "demo_scope_mesa": "the whole mesa",
        "demo_random": "Every player picks one of its legal moves at random.",
        "demo_hand": "{seat} gets {cards}",
        "demo_table": "Table: {cards}",
        "demo_chica_header": "Chica {n}",
        "demo_end": "End of the demonstration ({moves} moves).",
        "play_title": "Cuarenta: you against the computer",
        "play_title_pairs": "Cuarenta in pairs: you and the computer against the computer",
        "play_setup": "Seed {seed} · {players} players · rules {preset} · level {level}",
        "play_goal": "Chicas are played to {target} points; the first to win {chicas} wins the mesa.",
        "play_you": "Player 1 (you)",
        "play_computer": "Player {n} (computer)",
        "play_partner": "Player {n} (partner)",
        "play_opponent": "Player {n} (opponent)",
        "play_teams": "{team_a}: you and {partner}. {team_b}: {first} and {second}.",
        "play_howto": (
            "On your turn type the card's number (1 to 5), the card (like 7h) or a whole move "
            "(like 7h x3c+4d). ? gives a hint; q quits."
        ),
        "play_chicas": "Chicas won: {chicas}",
        "play_counts": "Cards in hand: {counts} · in the stock: {stock}",
        "play_last_drop": "({card} was just dropped: taking it by pair is a caída)",
        "play_hand": "Your hand: {cards}",
        "play_prompt": "Your turn: which card? (1-{last}, ? hint, q quit) > ",
        "play_choose_header": "What do you do with {card}?",
        "play_choose_prompt": "Which one? (1-{last}, 0 to pick another card) > ",
        "play_opt_take": "take {base}",
        "play_opt_take_run": "take {base} and the escalera {run}",
        "play_opt_drop": "take nothing and leave {card} on the table",
        "play_opt_caida": "a caída",
        "play_opt_limpia": "clears the table (limpia)",
        "play_opt_short": "leaves {cards}, which the next player may claim",
        "play_claim_header": "{victim} did not take all it could. Before you play you may claim it (R12):",
        "play_opt_claim": "claim {cards}",
        "play_opt_no_claim": "do not claim; just play",
        "play_claim_prompt": "Claim? (1-{last}) > ",
        "play_quit": "Game abandoned. See you next time!",
        "play_eof": "End of input: the game is left unfinished. See you next time!",
        "play_interrupted": "Game interrupted (Ctrl-C). See you next time!",
        "err_number": "There is no card number {n}: choose 1 to {last}.",
        "err_no_8910": "{text} is not a card: cuarenta is played without 8s, 9s and 10s.",
        "err_suit": "{text} is not a card: the suit is written h, s, d or c (♥ ♠ ♦ ♣).",
        "err_unknown": (
            "I do not understand “{text}”: type the card's number (1 to {last}), the card (like 7h), "
            "? for a hint or q to quit."
        ),
        "err_not_in_hand": "{card} is not in your hand; you hold {hand}.",
        "err_move": "I cannot read the move “{text}”: {reason}",
        "err_illegal": "That move is not allowed: {reason}",
        "err_choice": "Choose a number from 1 to {last}, or 0 to go back.",
        "err_claim_choice": "Choose a number from 1 to {last}.",
        "hint_title": "Hint:",
        "hint_takes": "Take something: {cards}",
        "hint_caidas": "Make a caída: {cards}",
        "hint_limpias": "Clear the table (limpia): {cards}",
        "hint_risky": "Careful, these would leave an easy caída or limpia: {cards}",
        "hint_none": "none",
        "hint_risk_caida": "{card} stays on the table with {rank} still unseen ({count}): a caída can follow",
        "hint_risk_caida_limpia": (
            "{card} would be alone on the table with {rank} still unseen ({count}): caída y limpia can follow"
        ),
        "hint_risk_limpia": "after {card} the table holds {table}, and whoever holds {ranks} clears it",
        "or": "or",
        "result_title": "Result of the mesa",
        "result_chica": "Chica {n}: {scores}; {team} wins",
        "result_zapatero": "{team} is zapatero",
        "result_platillo": "{team} is platillo",
        "result_you_win": "You won the mesa! Chicas: {won} to {lost}.",
        "result_team_win": "Your team won the mesa! Chicas: {won} to {lost}.",
        "result_you_lose": "The computer won the mesa. Chicas: {won} to {lost}.",
    },
}

RANK_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "es": ("as", "dos", "tres", "cuatro", "cinco", "seis", "siete", "jota", "reina", "rey"),
    "en": ("ace", "two", "three", "four", "five", "six", "seven", "jack", "queen", "king"),
}
RANK_PLURALS: Final[dict[str, tuple[str, ...]]] = {
    "es": ("ases", "doses", "treses", "cuatros", "cincos", "seises", "sietes", "jotas", "reinas", "reyes"),
    "en": ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "jacks", "queens", "kings"),
}
SUIT_NAMES: Final[dict[str, tuple[str, ...]]] = {"es": SUIT_NAMES_ES, "en": SUIT_NAMES_EN}

#: Names of the events, by ``Event.kind``.
EVENT_NAMES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "dealer_draw": "sorteo",
        "deal": "reparto",
        "ronda": "ronda",
        "four_of_a_kind": "cuatro iguales",
        "play": "jugada",
        "caida": "caída",
        "limpia": "limpia",
        "caida_limpia": "caída y limpia",
        "caida_ronda": "caída a la ronda",
        "claim": "reclamo",
        "hand_end": "fin de la mano",
        "carton": "cartón",
        "chica_won": "chica ganada",
        "zapatero": "zapatero",
        "mesa_won": "mesa ganada",
    },
    "en": {
        "dealer_draw": "draw for the deal",
        "deal": "deal",
        "ronda": "ronda (three of a kind)",
        "four_of_a_kind": "four of a kind",
        "play": "play",
        "caida": "caída",
        "limpia": "limpia",
        "caida_limpia": "caída y limpia",
        "caida_ronda": "caída a la ronda",
        "claim": "claim",
        "hand_end": "end of the hand",
        "carton": "cartón",
        "chica_won": "chica won",
        "zapatero": "zapatero",
        "mesa_won": "mesa won",
    },
}

#: The sayings ("Dichos del cuarenta", seed 000): key → (Spanish saying, English gloss).
SAYINGS: Final[dict[str, tuple[str, str]]] = {
    "dos_por_guapo": ("¡{n} por guapo!", "“{n} for the handsome one”: points for a ronda"),
    "mosero": ("¡Mosero!", "a caída made with a 3"),
    "cuatrero": ("¡Cuatrero has de ser!", "“a rustler you must be”: a caída made with a 4"),
    "la_muda": ("¡Aquí está la muda!", "“here is the change of clothes”: a caída made with a 6"),
    "q_lo_que_caiga": ("¡Q lo que caiga!", "“whatever falls”: a caída made with the Q"),
    "nobleza": ("¡Nobleza declarada!", "“nobility declared”: a caída made with a 2"),
    "joto": ("¡Joto!", "a caída made with the jack, la jota"),
    "treinta_y_ocho": (
        "¡Treinta y ocho que no juega!",
        "“38 does not play”: from now on this side scores only with a caída",
    ),
    "zapatero": ("¡Zapatero!", "“shoemaker”: the loser did not even make 10 points"),
    "platillo": ("¡Platillo!", "“the saucer”: the loser did not make a single point"),
    "capariche": ("¡Capariche!", "a caída or limpia that takes a lot of cards"),
    "as_que_no_caeras": ("¡As que no caerás!", "“an ace you will not fall on”: an ace dropped on the table"),
    "marido_tiene": ("¡Marido tiene!", "“she has a husband”: the partner pays back a caída"),
}

#: Spanish number words used by "¡Dos por guapo!".
_NUMBER_WORDS: Final[dict[str, dict[int, str]]] = {
    "es": {2: "Dos", 4: "Cuatro", 6: "Seis", 8: "Ocho", 10: "Diez"},
    "en": {2: "two", 4: "four", 6: "six", 8: "eight", 10: "ten"},
}

#: Card ranks whose caída has its own saying.
_CAIDA_SAYINGS: Final[dict[str, str]] = {
    "2": "nobleza",
    "3": "mosero",
    "4": "cuatrero",
    "6": "la_muda",
    "J": "joto",
    "Q": "q_lo_que_caiga",
}


def check_lang(lang: str) -> str:
    """Return ``lang`` if supported, else raise ``ValueError`` naming the choices."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    return lang


def t(key: str, lang: str = DEFAULT_LANG, **kw: object) -> str:
    """The message ``key`` in ``lang``, with ``{placeholders}`` filled from ``kw``.

    >>> t("seat_name", "en", n=3)
    'Player 3'

    An unknown key raises ``KeyError``; an unknown language ``ValueError``.
    """
    template = MESSAGES[check_lang(lang)][key]
    return template.format(**kw)


def placeholders(template: str) -> set[str]:
    """The ``{names}`` used by a message template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# -- names ----------------------------------------------------------------------------------------
def rank_name(rank: int | str, lang: str = DEFAULT_LANG, plural: bool = False) -> str:
    """Name of a rank (index 0..9 or character ``"A"`` … ``"K"``).

    >>> rank_name("Q", "es"), rank_name(0, "en", plural=True)
    ('reina', 'aces')
    """
    index = RANK_CHARS.index(rank) if isinstance(rank, str) else rank
    names = RANK_PLURALS if plural else RANK_NAMES
    return names[check_lang(lang)][index]


def suit_name(suit: int, lang: str = DEFAULT_LANG) -> str:
    """Name of a suit index 0..3 (h s d c).

    >>> suit_name(2, "es")
    'brillo'
    """
    return SUIT_NAMES[check_lang(lang)][suit]


def card_name(card: Card | int, lang: str = DEFAULT_LANG) -> str:
    """The card in words.

    >>> card_name(Card("7d"), "es"), card_name(Card("Qh"), "en")
    ('siete de brillo', 'queen of hearts')
    """
    c = CARDS[int(card)]
    return t("card_name", lang, rank=rank_name(c.rank, lang), suit=suit_name(c.suit, lang))


def card_text(card: Card | int) -> str:
    """The card as shown in texts: rank and suit symbol, ``"7♦"``."""
    return CARDS[int(card)].symbol()


def cards_text(cards: Iterable[Card | int], sep: str = " ") -> str:
    """Several cards as shown in texts: ``"3♣ 4♦"``."""
    return sep.join(card_text(c) for c in cards)


def event_name(kind: str, lang: str = DEFAULT_LANG) -> str:
    """Name of an event kind (``Event.kind``), e.g. ``"caida_limpia"`` → ``"caída y limpia"``."""
    return EVENT_NAMES[check_lang(lang)][kind]


def seat_names(players: int, lang: str = DEFAULT_LANG) -> list[str]:
    """Default seat names: ``["Jugador 1", "Jugador 2"]`` …

    >>> seat_names(4, "en")
    ['Player 1', 'Player 2', 'Player 3', 'Player 4']
    """
    return [t("seat_name", lang, n=i + 1) for i in range(players)]


_default_seat_names = seat_names  # describe_event's parameter shadows the name


def team_names(seats: Sequence[str], lang: str = DEFAULT_LANG) -> list[str]:
    """Names of the two teams: the players themselves in a game of two, else ``Equipo A``/``B``.

    >>> team_names(["Ana", "Luis"]), team_names(seat_names(4), "es")
    (['Ana', 'Luis'], ['Equipo A', 'Equipo B'])
    """
    if len(seats) == 2:
        return list(seats)
    return [t("team_name", lang, letter=letter) for letter in "AB"]


# -- points ---------------------------------------------------------------------------------------
def tantos_perros(points: int) -> tuple[int, int]:
    """Points as (perros, tantos): a perro is 10 points, a tanto 2 (seed 000, "Forma de contabilización").

    Scores are always even; an odd remainder cannot be shown with tantos and is dropped.

    >>> tantos_perros(14), tantos_perros(40), tantos_perros(0)
    ((1, 2), (4, 0), (0, 0))
    """
    if points < 0:
        raise ValueError(f"points must not be negative, got {points}")
    return points // 10, (points % 10) // 2


def _count(key: str, n: int, lang: str) -> str:
    singular, plural = t(key, lang, n=n).split("|")
    return singular if n == 1 else plural


def points_text(points: int, lang: str = DEFAULT_LANG) -> str:
    """Points with their perros and tantos: ``"14 = 1 perro y 2 tantos"``.

    >>> points_text(10, "es"), points_text(4, "en"), points_text(0, "es")
    ('10 = 1 perro', '4 = 2 tantos', '0')
    """
    perros, tantos = tantos_perros(points)
    words = []
    if perros:
        words.append(_count("perros", perros, lang))
    if tantos:
        words.append(_count("tantos", tantos, lang))
    if not words:
        return str(points)
    return t("points_equal", lang, points=points, words=f" {t('and', lang)} ".join(words))


def score_text(scores: Sequence[int], lang: str = DEFAULT_LANG, teams: Sequence[str] | None = None) -> str:
    """The score of both teams: ``"Marcador: Jugador 1 14 = 1 perro y 2 tantos · Jugador 2 0"``."""
    names = list(teams) if teams is not None else team_names(seat_names(2, lang), lang)
    entries = [
        t("score_entry", lang, team=names[i], points=points_text(s, lang)) for i, s in enumerate(scores)
    ]
    return t("score_line", lang, scores=" · ".join(entries))


def _award_text(points: int, team: str, note: str | None, lang: str, caida: bool = False) -> str:
    text = t("points_for", lang, points=points, team=team) if points else t("no_points", lang)
    if note:
        text += f" ({note_text(note, lang, caida=caida)})"
    return text


def note_text(note: str, lang: str = DEFAULT_LANG, caida: bool = False) -> str:
    """Why the rules reduced a score (an event's ``note``); ``caida`` for caídas."""
    if note == "treinta_y_ocho":
        return t("note_treinta_y_ocho_caida" if caida else "note_treinta_y_ocho", lang)
    if note == "ronda_limit":
        return t("note_ronda_limit_caida" if caida else "note_ronda_limit", lang)
    return t("note_generic", lang, note=note)


# -- event descriptions ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Names:
    lang: str
    seats: list[str]
    teams: list[str]

    def seat(self, seat: int) -> str:
        return self.seats[seat] if 0 <= seat < len(self.seats) else str(seat + 1)

    def team(self, team: int) -> str:
        return self.teams[team]

    def victim_of(self, seat: int) -> str:
        """The seat that played just before ``seat``."""
        return self.seat((seat - 1) % len(self.seats))


def _d_dealer_draw(e: DealerDraw, n: _Names) -> str:
    rounds = [
        t("list_sep", n.lang).join(
            t("ev_dealer_draw_card", n.lang, seat=n.seat(s), card=card_text(c)) for s, c in draw
        )
        for draw in e.draws
    ]
    return t(
        "ev_dealer_draw",
        n.lang,
        draws=t("ev_dealer_draw_again", n.lang).join(rounds),
        dealer=n.seat(e.dealer),
    )


def _d_deal(e: Deal, n: _Names) -> str:
    deals = NUM_CARDS // (5 * len(n.seats))
    return t("ev_deal", n.lang, hand=e.hand + 1, deal=e.deal + 1, deals=deals, dealer=n.seat(e.dealer))


def _d_ronda(e: Ronda, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t(
        "ev_ronda", n.lang, seat=n.seat(e.seat), rank=rank_name(e.rank, n.lang, plural=True), points=points
    )


def _d_four(e: FourOfAKind, n: _Names) -> str:
    rank = rank_name(e.rank, n.lang, plural=True)
    if e.wins_chica:
        return t("ev_four_wins", n.lang, seat=n.seat(e.seat), rank=rank, team=n.team(e.team))
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t("ev_four_points", n.lang, seat=n.seat(e.seat), rank=rank, points=points)


def _d_play(e: Play, n: _Names) -> str:
    move = e.move
    seat, card = n.seat(e.seat), card_text(move.card)
    if not move.base:
        return t("ev_play_drop", n.lang, seat=seat, card=card)
    base = " + ".join(card_text(c) for c in move.base)
    if not move.run:
        return t("ev_play_take", n.lang, seat=seat, card=card, base=base)
    return t("ev_play_take_run", n.lang, seat=seat, card=card, base=base, run=cards_text(move.run))


def _d_caida(e: Caida, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang, caida=True)
    return t(
        "ev_caida",
        n.lang,
        seat=n.seat(e.seat),
        card=card_text(e.card),
        victim=n.seat(e.victim),
        points=points,
    )


def _d_limpia(e: Limpia, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t("ev_limpia", n.lang, seat=n.seat(e.seat), points=points)


def _d_caida_limpia(e: CaidaLimpia, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang, caida=True)
    return t(
        "ev_caida_limpia",
        n.lang,
        seat=n.seat(e.seat),
        card=card_text(e.card),
        victim=n.seat(e.victim),
        points=points,
    )


def _d_caida_ronda(e: CaidaRonda, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang, caida=True)
    key = "ev_caida_ronda_limpia" if e.limpia else "ev_caida_ronda"
    return t(key, n.lang, seat=n.seat(e.seat), card=card_text(e.card), victim=n.seat(e.victim), points=points)


def _d_claim(e: ClaimMade, n: _Names) -> str:
    return t("ev_claim", n.lang, seat=n.seat(e.seat), cards=cards_text(e.cards), victim=n.victim_of(e.seat))


def _d_hand_end(e: HandEnd, n: _Names) -> str:
    piles = t("list_sep", n.lang).join(
        t("ev_hand_end_pile", n.lang, team=n.team(i), cards=size) for i, size in enumerate(e.pile_sizes)
    )
    if e.leftovers:
        leftovers = t("ev_hand_end_leftovers", n.lang, cards=cards_text(e.leftovers))
    else:
        leftovers = t("ev_hand_end_clean", n.lang)
    return t("ev_hand_end", n.lang, piles=piles, leftovers=leftovers)


def _d_carton(e: Carton, n: _Names) -> str:
    key = {
        "carton": "ev_carton",
        "most_cards": "ev_carton_most",
        "dos_por_dar": "ev_carton_dos_por_dar",
    }.get(e.reason or "", "ev_carton_none")
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t(key, n.lang, team=n.team(e.team), cards=e.cards, points=points)


def _d_chica_won(e: ChicaWon, n: _Names) -> str:
    key = {"four_of_a_kind": "ev_chica_won_four", "cuatro_caidas": "ev_chica_won_caidas"}.get(
        e.reason, "ev_chica_won"
    )
    return t(
        key,
        n.lang,
        team=n.team(e.team),
        chica=e.chica + 1,
        won=e.scores[e.team],
        lost=e.scores[1 - e.team],
    )


def _d_zapatero(e: Zapatero, n: _Names) -> str:
    if e.platillo:
        return t("ev_platillo", n.lang, team=n.team(e.team))
    return t("ev_zapatero", n.lang, team=n.team(e.team), points=e.points)


def _d_mesa_won(e: MesaWon, n: _Names) -> str:
    key = "ev_mesa_won_zapatero" if e.reason == "zapatero" else "ev_mesa_won"
    return t(key, n.lang, team=n.team(e.team), won=e.chicas[e.team], lost=e.chicas[1 - e.team])


def _describe(event: Event, n: _Names) -> str | None:
    if isinstance(event, Play):
        return _d_play(event, n)
    if isinstance(event, Caida):
        return _d_caida(event, n)
    if isinstance(event, Limpia):
        return _d_limpia(event, n)
    if isinstance(event, CaidaLimpia):
        return _d_caida_limpia(event, n)
    if isinstance(event, CaidaRonda):
        return _d_caida_ronda(event, n)
    if isinstance(event, Deal):
        return _d_deal(event, n)
    if isinstance(event, Ronda):
        return _d_ronda(event, n)
    if isinstance(event, FourOfAKind):
        return _d_four(event, n)
    if isinstance(event, ClaimMade):
        return _d_claim(event, n)
    if isinstance(event, HandEnd):
        return _d_hand_end(event, n)
    if isinstance(event, Carton):
        return _d_carton(event, n)
    if isinstance(event, ChicaWon):
        return _d_chica_won(event, n)
    if isinstance(event, Zapatero):
        return _d_zapatero(event, n)
    if isinstance(event, MesaWon):
        return _d_mesa_won(event, n)
    if isinstance(event, DealerDraw):
        return _d_dealer_draw(event, n)
    return None


def describe_event(event: Event, lang: str = DEFAULT_LANG, seat_names: Sequence[str] | None = None) -> str:
    """One sentence telling what happened, in ``lang``.

    ``seat_names`` names the seats (and so tells how many players there are);
    by default ``Jugador 1`` … for two players (four if the event names a seat
    beyond the second). An event class this module does not know gets a
    generic sentence naming its kind. Teams are named
    after the players in a game of two, else ``Equipo A`` (seats 1 and 3) and
    ``Equipo B`` (seats 2 and 4).

    >>> from cuarenta.events import Ronda
    >>> describe_event(Ronda(seat=2, team=0, rank="5", points=2), "en", seat_names=None)
    'Ronda! Player 3 holds three fives: +2 for Team A.'
    """
    check_lang(lang)
    if not isinstance(event, Event):
        raise TypeError(f"{event!r} is not an Event")
    if seat_names is None:
        seat = getattr(event, "seat", 0)
        seats = _default_seat_names(4 if isinstance(seat, int) and seat >= 2 else 2, lang)
    else:
        seats = list(seat_names)
    text = _describe(event, _Names(lang, seats, team_names(seats, lang)))
    return t("ev_unknown", lang, kind=event.kind) if text is None else text


# -- sayings --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SayingContext:
    """What a saying needs to know beyond the event itself.

    ``move`` is the move that caused the event (for *capariche*), ``scores``
    the teams' scores right after it (for *treinta y ocho que no juega*),
    ``last_caida`` the (seat, victim) of the latest earlier caída in the hand
    (for *marido tiene*).
    """

    players: int = 2
    move: Move | None = None
    scores: tuple[int, int] | None = None
    target: int = 40
    treinta_y_ocho: bool = False
    last_caida: tuple[int, int] | None = None

    @classmethod
    def for_rules(
        cls,
        rules: Rules,
        move: Move | None = None,
        scores: tuple[int, int] | None = None,
        last_caida: tuple[int, int] | None = None,
    ) -> SayingContext:
        """A context with the rule options a saying depends on."""
        return cls(rules.players, move, scores, rules.target, rules.treinta_y_ocho, last_caida)


_CAIDAS: Final = (Caida, CaidaLimpia, CaidaRonda)


def saying_keys(event: Event, context: SayingContext | None = None) -> list[str]:
    """Keys of :data:`SAYINGS` that fit the event, most fitting first (deterministic).

    >>> from cuarenta.events import Zapatero
    >>> saying_keys(Zapatero(team=1, points=0, platillo=True))
    ['platillo']
    """
    ctx = context or SayingContext()
    keys: list[str] = []
    if isinstance(event, Play):
        if not event.move.base and event.move.card.rank_char == "A":
            keys.append("as_que_no_caeras")
        return keys
    if isinstance(event, Zapatero):
        return ["platillo" if event.platillo else "zapatero"]
    if (
        isinstance(event, (*_CAIDAS, Limpia))
        and ctx.move is not None
        and len(ctx.move.taken) >= CAPARICHE_CARDS
    ):
        keys.append("capariche")
    if isinstance(event, _CAIDAS):
        key = _CAIDA_SAYINGS.get(event.card.rank_char)
        if key:
            keys.append(key)
        last = ctx.last_caida
        if (
            ctx.players == 4
            and last is not None
            and last[0] == event.victim
            and last[1] == (event.seat + 2) % 4
        ):
            keys.append("marido_tiene")
    if isinstance(event, Ronda) and event.points > 0:
        keys.append("dos_por_guapo")
    points = getattr(event, "points", 0)
    team = getattr(event, "team", None)
    if (
        ctx.treinta_y_ocho
        and ctx.scores is not None
        and isinstance(points, int)
        and points > 0
        and isinstance(team, int)
        and not isinstance(event, (Zapatero, ChicaWon))
        and ctx.scores[team] == ctx.target - 2
    ):
        keys.append("treinta_y_ocho")
    return keys


def saying_text(key: str, lang: str = DEFAULT_LANG, points: int = 2) -> str:
    """A saying in ``lang``: the Spanish words, and in English a gloss after them.

    >>> saying_text("dos_por_guapo", "es"), saying_text("zapatero", "en")
    ('¡Dos por guapo!', '“¡Zapatero!” (“shoemaker”: the loser did not even make 10 points)')
    """
    spanish, gloss = SAYINGS[key]
    words = _NUMBER_WORDS["es"].get(points, str(points))
    spanish = spanish.format(n=words)
    if check_lang(lang) == "es":
        return spanish
    return f"“{spanish}” ({gloss.format(n=_NUMBER_WORDS['en'].get(points, str(points)))})"


def sayings_for(event: Event, context: SayingContext | None = None, lang: str = DEFAULT_LANG) -> list[str]:
    """Every saying that fits the event, in ``lang``, most fitting first."""
    points = getattr(event, "points", 2)
    return [
        saying_text(k, lang, points if isinstance(points, int) else 2) for k in saying_keys(event, context)
    ]


def saying_for(event: Event, context: SayingContext | None = None, lang: str = DEFAULT_LANG) -> str | None:
    """The most fitting saying for the event, or ``None``."""
    found = sayings_for(event, context, lang)
    return found[0] if found else None


# -- narration ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One narrated event: its sentence, its sayings, and the score if it changed."""

    event: Event
    text: str
    sayings: tuple[str, ...] = ()
    scores: tuple[int, int] | None = None  #: both teams' scores after an event that added points


class Narrator:
    """Turns the engine's events into narrated lines, keeping the running score.

    Feed it the events in order (all of them, from the dealer draw on); it
    tracks what the sayings need (the move being played, the last caída of
    the hand, the scores) and restarts the score when a chica is won.
    """

    def __init__(self, rules: Rules, lang: str = DEFAULT_LANG, names: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.lang = check_lang(lang)
        self.seat_names = list(names) if names is not None else seat_names(rules.players, lang)
        self.team_names = team_names(self.seat_names, lang)
        self.scores: tuple[int, int] = (0, 0)
        self._move: Move | None = None
        self._last_caida: tuple[int, int] | None = None

    def score_text(self, scores: Sequence[int] | None = None) -> str:
        """The running score (or ``scores``) with team names, perros and tantos."""
        return score_text(self.scores if scores is None else scores, self.lang, self.team_names)

    def narrate(self, events: Iterable[Event]) -> list[Line]:
        """Narrate events in order; returns one :class:`Line` per event."""
        return [self.narrate_one(e) for e in events]

    def narrate_one(self, event: Event) -> Line:
        """Narrate the next event."""
        if isinstance(event, Play):
            self._move = event.move
        elif isinstance(event, (Deal, DealerDraw)):
            self._move = None
            if isinstance(event, Deal) and event.deal == 0:
                self._last_caida = None
        points = getattr(event, "points", 0)
        team = getattr(event, "team", None)
        changed = False
        if (
            isinstance(points, int)
            and points > 0
            and isinstance(team, int)
            and not isinstance(event, (Zapatero, ChicaWon))
        ):
            s = list(self.scores)
            s[team] += points
            self.scores = (s[0], s[1])
            changed = True
        context = SayingContext.for_rules(
            self.rules, move=self._move, scores=self.scores, last_caida=self._last_caida
        )
        sayings = tuple(sayings_for(event, context, self.lang))
        text = describe_event(event, self.lang, self.seat_names)
        if isinstance(event, _CAIDAS):
            self._last_caida = (event.seat, event.victim)
        if isinstance(event, ChicaWon):
            self.scores = (0, 0)
            self._last_caida = None
        return Line(event, text, sayings, self.scores if changed else None)
