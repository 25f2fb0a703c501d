// Texts of the page in Spanish (default) and English, event descriptions and the traditional sayings.
// The game's own words (caída, limpia, ronda, cartón, chica, mesa, zapatero…) stay Spanish in English too.
// Event sentences and sayings mirror src/cuarenta/i18n.py (describe_event, saying_keys) so the terminal
// and the browser tell the same story.

import { cardText, parseCard } from "./cards.js";

export const LANGS = ["es", "en"];
const LANG_KEY = "cuarenta.lang";

const MESSAGES = {
  es: {
    lang_name: "Español",
    lang_switch: "English",
    lang_switch_aria: "Switch to English",
    skip_to_main: "Saltar al contenido",
    nav_new: "Nueva partida",
    nav_history: "Historial",
    nav_rules: "Cómo se juega",
    nav_table_short: "Mesa",
    nav_new_short: "Nueva",
    nav_rules_short: "Reglas",
    lang_switch_short: "EN",
    rules_href: "como-se-juega.html",
    tagline: "El juego de naipes del Ecuador",
    // new game
    new_title: "Nueva partida",
    f_name: "Tu nombre",
    f_name_placeholder: "Jugador",
    f_players: "Jugadores",
    players_2: "1 contra 1",
    players_2_sub: "mano a mano",
    players_4: "2 contra 2",
    players_4_sub: "en parejas, con un compañero",
    f_level: "Nivel de la computadora",
    level_facil: "Fácil",
    level_normal: "Normal",
    level_dificil: "Difícil",
    level_facil_sub: "juega sin malicia",
    level_normal_sub: "cuida sus cartas",
    level_dificil_sub: "cuenta todo lo que sale",
    f_rules: "Reglas",
    preset_a_todo_rigor: "A todo rigor",
    preset_todo_dos: "Todo dos",
    preset_basico: "Básico",
    preset_campeonato: "Campeonato",
    preset_custom: "A mi manera",
    preset_desc_a_todo_rigor:
      "La mesa clásica: caída y limpia valen 4, caída a la ronda 10, desde 30 no se cobra ronda y «38 que no juega». Gana la mesa quien gane 2 chicas.",
    preset_desc_todo_dos: "Como a todo rigor, pero caída y limpia valen 2 y la caída a la ronda 4.",
    preset_desc_basico:
      "Para empezar, mano a mano: sin caída a la ronda, sin límite de ronda ni «38 que no juega»; se juega una sola chica.",
    preset_desc_campeonato:
      "Reglas de torneo, en parejas: te llevas lo que declaras (lo que olvides lo puede reclamar el siguiente) y cuatro caídas seguidas ganan la chica.",
    preset_desc_custom: "Tus propias reglas: cambia lo que quieras en la tabla de opciones.",
    preset_only_2: "solo mano a mano",
    preset_only_4: "solo en parejas",
    f_custom: "Todas las opciones",
    f_custom_hint: "Al cambiar una opción, las reglas pasan a ser «a mi manera».",
    f_start: "Empezar a jugar",
    f_resume: "Seguir la partida guardada",
    starting: "Preparando la mesa…",
    options_fallback: "No se pudieron leer las opciones del servidor; se muestran las de siempre.",
    // options of the rules (RULES.md)
    opt_sum_cards: "Por suma se llevan",
    opt_capture: "Al llevar",
    opt_caida_limpia_points: "Caída y limpia vale",
    opt_ronda_points: "Ronda vale",
    opt_four_of_a_kind: "Cuatro cartas iguales",
    opt_caida_ronda_points: "Caída a la ronda vale",
    opt_ronda_limit: "Ya no se cobra ronda desde",
    opt_treinta_y_ocho: "38 que no juega",
    opt_cuatro_caidas_gana: "Cuatro caídas seguidas ganan la chica",
    opt_carton_short: "Si nadie llega a 20 cartas",
    opt_caida_across_deals: "Caída sobre la última carta del reparto anterior",
    opt_carton_cap: "El cartón cuenta hasta",
    opt_target: "La chica se gana con",
    opt_chicas: "Chicas para ganar la mesa",
    opt_zapatero_wins_mesa: "Dejar zapatero gana la mesa",
    opt_players: "Jugadores",
    ch_two_or_more: "dos o más cartas",
    ch_two: "solo dos cartas",
    ch_auto: "se lleva todo solo",
    ch_manual: "se declara, con reclamos",
    ch_wins_chica: "ganan la chica",
    ch_points: "valen 4 (doble ronda)",
    ch_most_cards: "2 puntos a quien tenga más",
    ch_dos_por_dar: "dos por dar: solo quien dio",
    ch_true: "sí",
    ch_false: "no",
    ch_points_n: "{n} puntos",
    ch_off: "no se juega",
    ch_no_limit: "sin límite",
    ch_no_cap: "todas las cartas",
    ch_cards_n: "{n} cartas",
    ch_chicas_n: "{n}",
    // the table
    table_title: "La mesa",
    you: "Tú",
    computer: "Computadora",
    partner: "Compañero",
    rival_right: "Rival derecho",
    rival_left: "Rival izquierdo",
    player_n: "Jugador {n}",
    team_yours: "Tu equipo",
    team_rivals: "Rivales",
    seat_you_tag: "tú",
    seat_partner_tag: "compañero",
    seat_computer_level: "computadora · {level}",
    seat_person: "persona",
    hand_count: "{n} cartas en la mano",
    hand_count_1: "1 carta en la mano",
    pile_count: "Cartón: {n}",
    pile_aria: "{n} cartas levantadas",
    dealer_tag: "da",
    dealer_aria: "reparte",
    score_title: "Marcador",
    score_aria: "{team}: {points}",
    chicas_label: "Chicas",
    target_label: "chica a {n}",
    hand_label: "Mano {hand}",
    mesa_label: "Mesa {n}",
    deal_label: "reparto {deal} de {deals}",
    stock_label: "Mazo: {n}",
    table_label: "Cartas en la mesa",
    table_empty: "La mesa está vacía.",
    last_drop_badge: "última",
    last_drop_aria: "recién echada: llevarla por igualdad es caída",
    your_hand: "Tu mano",
    your_pile: "Tu cartón: {n}",
    team_pile: "Cartón de tu equipo: {n}",
    ayudas: "Ayudas",
    ayudas_on: "Ayudas: sí",
    ayudas_off: "Ayudas: no",
    log_title: "Lo que pasó en esta mano",
    rondas_label: "Rondas: {list}",
    status_connecting: "Conectando con la mesa…",
    status_reconnecting: "Se cortó la conexión; reconectando…",
    status_your_turn: "Tu turno: toca una carta para jugarla.",
    status_your_turn_keys: "Tu turno: toca una carta (o teclas 1-5 y Enter).",
    status_your_turn_claim: "Tu turno: puedes reclamar lo olvidado antes de jugar.",
    status_turn_of: "Juega {name}…",
    status_sending: "Jugando…",
    status_finished: "La mesa terminó.",
    status_no_game: "No hay partida en curso.",
    not_your_turn: "Todavía no es tu turno.",
    card_no_move: "Esa carta no se puede jugar ahora.",
    // hints (Ayudas)
    hint_takes: "lleva",
    hint_caida: "¡Caída!",
    hint_limpia: "limpia",
    hint_warn_caida: "ojo: caída",
    hint_warn_limpia: "ojo: limpia",
    hint_takes_aria: "lleva algo",
    hint_caida_aria: "hace caída",
    hint_limpia_aria: "hace limpia",
    hint_warn_caida_aria: "cuidado: puede dejar caída fácil al siguiente",
    hint_warn_limpia_aria: "cuidado: puede dejar limpia fácil al siguiente",
    // the choice of a capture
    choice_title: "¿Qué haces con {card}?",
    choice_help: "Elige una jugada.",
    opt_take: "Llevar {base}",
    opt_take_run: "Llevar {base} y en escalera {run}",
    opt_drop: "No llevar nada: dejar {card} en la mesa",
    tag_caida: "caída",
    tag_limpia: "limpia",
    tag_short: "deja {cards}: el siguiente lo puede reclamar",
    tag_forgets: "lo que no lleves lo puede reclamar el siguiente",
    cancel: "Cancelar",
    claims_title: "{victim} no se llevó todo lo que podía. Antes de jugar puedes reclamar:",
    claim_btn: "Reclamar {cards}",
    // the draw for the first deal
    draw_title: "Sorteo para dar",
    draw_text: "Cada uno saca una carta: la más alta reparte.",
    draw_again: "Empate: se vuelve a sacar.",
    draw_dealer: "Reparte {name}.",
    draw_note: "Reparte {name}: sacó la carta más alta en el sorteo.",
    // end of a hand, chica, mesa
    summary_title: "Fin de la mano {n}",
    summary_team: "Equipo",
    summary_cards: "Cartas",
    summary_carton: "Cartón",
    summary_score: "Puntos",
    summary_leftovers: "Quedan en la mesa, y no son de nadie:",
    summary_clean: "La mesa quedó vacía.",
    summary_no_carton: "sin cartón",
    summary_most_cards: "+{n} por tener más cartas",
    summary_dos_por_dar: "+{n} dos por dar",
    summary_chica: "¡{team} gana la chica {n}, {won} a {lost}!",
    summary_abandoned: "La chica se decidió antes de acabar la mano.",
    continue: "Seguir",
    result_title: "Resultado de la mesa",
    result_you_win: "¡Ganaste la mesa!",
    result_team_win: "¡Tu equipo ganó la mesa!",
    result_you_lose: "Perdiste la mesa.",
    result_team_lose: "Tu equipo perdió la mesa.",
    result_chicas: "Chicas: {a} a {b}",
    result_by_zapatero: "La mesa se ganó dejando zapatero al rival.",
    result_chica_line: "Chica {n}: {scores} — gana {team}",
    result_zapatero: "{team} quedó zapatero",
    result_platillo: "{team} quedó platillo",
    play_again: "Jugar otra vez",
    download_record: "Descargar la partida",
    // errors
    err_title: "Aviso",
    err_stale: "La mesa cambió antes de tu jugada: mírala de nuevo y vuelve a jugar.",
    err_not_your_turn: "Todavía no es tu turno.",
    err_illegal_move: "Esa jugada no vale: {message}",
    err_unknown_room: "No se encontró la partida guardada; empieza una nueva.",
    err_bad_token: "Esta partida no es de este navegador; empieza una nueva.",
    err_game_over: "La mesa ya terminó.",
    err_not_finished: "La mesa todavía no terminó.",
    err_corrupt_room: "La partida guardada no se puede leer: {message}",
    err_not_joined: "Todavía no estás en la mesa; conectando otra vez.",
    err_bad_message: "El servidor no entendió el mensaje: {message}",
    err_bad_version: "La página y el servidor no se entienden (versión). Recarga la página.",
    err_generic: "Error: {message}",
    err_network: "No se pudo hablar con el servidor. ¿Está en marcha «cuarenta serve»?",
    err_create: "No se pudo crear la partida: {message}",
    dismiss: "Cerrar",
    // history and statistics
    history_title: "Historial",
    history_intro: "Las partidas terminadas en este navegador.",
    history_empty: "Todavía no terminaste ninguna partida en este navegador.",
    stats_title: "Estadísticas por nivel",
    stats_empty: "Aún no hay estadísticas.",
    col_date: "Fecha",
    col_level: "Nivel",
    col_players: "Jugadores",
    col_rules: "Reglas",
    col_result: "Resultado",
    col_record: "Partida",
    col_played: "Jugadas",
    col_won: "Ganadas",
    col_caidas: "Caídas",
    col_limpias: "Limpias",
    res_won: "ganada",
    res_lost: "perdida",
    record_link: "descargar",
    loading: "Cargando…",
    // scores in words
    points_n: "{n} puntos",
    perros_tantos: "{points}: {words}",
    perro_1: "1 perro",
    perro_n: "{n} perros",
    tanto_1: "1 tanto",
    tanto_n: "{n} tantos",
    and: "y",
    // event sentences (as src/cuarenta/i18n.py)
    points_for: "+{points} para {team}",
    no_points: "no suma",
    note_treinta_y_ocho: "38 que no juega",
    note_treinta_y_ocho_caida: "con 38 la caída vale solo 2: 38 que no juega",
    note_ronda_limit: "pasado el límite ya no se cobra ronda",
    note_ronda_limit_caida: "vale como caída simple: pasado el límite no hay caída a la ronda",
    note_generic: "regla {note}",
    ev_dealer_draw: "Sorteo para dar: {draws}. Reparte {dealer}.",
    ev_dealer_draw_card: "{seat} saca {card}",
    ev_dealer_draw_again: "; empate, se vuelve a sacar: ",
    ev_deal: "Mano {hand}, reparto {deal} de {deals}: reparte {dealer}.",
    ev_ronda: "¡Ronda! {seat} tiene tres {rank}: {points}.",
    ev_four_wins: "¡Cuatro {rank} en la mano de {seat}! {team} gana la chica.",
    ev_four_points: "¡Doble ronda! {seat} tiene cuatro {rank}: {points}.",
    ev_play_drop: "{seat} juega {card} y no lleva nada.",
    ev_play_take: "{seat} juega {card} y lleva {base}.",
    ev_play_take_run: "{seat} juega {card} y lleva {base}, y en escalera {run}.",
    ev_caida: "¡Caída! {seat} le cae al {card} de {victim}: {points}.",
    ev_limpia: "¡Limpia! {seat} deja la mesa vacía: {points}.",
    ev_caida_limpia: "¡Caída y limpia! {seat} le cae al {card} de {victim} y deja la mesa vacía: {points}.",
    ev_caida_ronda: "¡Caída a la ronda! {seat} le cae al {card} de la ronda de {victim}: {points}.",
    ev_caida_ronda_limpia:
      "¡Caída a la ronda y limpia! {seat} le cae al {card} de la ronda de {victim} y deja la mesa vacía: {points}.",
    ev_claim: "{seat} reclama {cards}, que {victim} no se llevó.",
    ev_hand_end: "Fin de la mano. Cartas levantadas: {piles}. {leftovers}",
    ev_hand_end_pile: "{team} {cards}",
    ev_hand_end_leftovers: "En la mesa quedan {cards}, que no son de nadie.",
    ev_hand_end_clean: "La mesa quedó vacía.",
    ev_carton: "Cartón de {team}: {cards} cartas, {points}.",
    ev_carton_most: "{team} levantó más cartas ({cards}): {points}.",
    ev_carton_dos_por_dar: "Dos por dar: {team}, que dio, levantó más cartas ({cards}): {points}.",
    ev_carton_none: "{team}: {cards} cartas, sin puntos de cartón.",
    ev_chica_won: "¡{team} gana la chica {chica}, {won} a {lost}!",
    ev_chica_won_four: "¡{team} gana la chica {chica} con cuatro cartas iguales ({won} a {lost})!",
    ev_chica_won_caidas: "¡{team} gana la chica {chica} con cuatro caídas seguidas ({won} a {lost})!",
    ev_zapatero: "{team} se queda zapatero con {points} puntos.",
    ev_platillo: "{team} se queda platillo: ¡ni un solo punto!",
    ev_mesa_won: "¡{team} gana la mesa! Chicas: {won} a {lost}.",
    ev_mesa_won_zapatero: "¡{team} gana la mesa por zapatero! Chicas: {won} a {lost}.",
    ev_unknown: "Evento: {kind}.",
  },
  en: {
    lang_name: "English",
    lang_switch: "Español",
    lang_switch_aria: "Cambiar a español",
    skip_to_main: "Skip to the content",
    nav_new: "New game",
    nav_history: "History",
    nav_rules: "How to play",
    nav_table_short: "Table",
    nav_new_short: "New",
    nav_rules_short: "Rules",
    lang_switch_short: "ES",
    rules_href: "how-to-play.html",
    tagline: "The card game of Ecuador",
    new_title: "New game",
    f_name: "Your name",
    f_name_placeholder: "Player",
    f_players: "Players",
    players_2: "1 against 1",
    players_2_sub: "mano a mano",
    players_4: "2 against 2",
    players_4_sub: "in pairs, with a partner",
    f_level: "Computer level",
    level_facil: "Easy (fácil)",
    level_normal: "Normal",
    level_dificil: "Hard (difícil)",
    level_facil_sub: "plays without guile",
    level_normal_sub: "looks after its cards",
    level_dificil_sub: "counts every card played",
    f_rules: "Rules",
    preset_a_todo_rigor: "A todo rigor",
    preset_todo_dos: "Todo dos",
    preset_basico: "Básico (basic)",
    preset_campeonato: "Campeonato (tournament)",
    preset_custom: "My own",
    preset_desc_a_todo_rigor:
      "The classic table: caída y limpia is worth 4, caída a la ronda 10, no ronda from 30, and “38 que no juega”. Win 2 chicas to win the mesa.",
    preset_desc_todo_dos: "Like a todo rigor, but caída y limpia is worth 2 and caída a la ronda 4.",
    preset_desc_basico:
      "To start with, one against one: no caída a la ronda, no ronda limit, no “38 que no juega”; a single chica.",
    preset_desc_campeonato:
      "Tournament rules, in pairs: you take what you declare (what you forget the next player may claim), and four caídas in a row win the chica.",
    preset_desc_custom: "Your own rules: change anything in the table of options.",
    preset_only_2: "one against one only",
    preset_only_4: "pairs only",
    f_custom: "Every option",
    f_custom_hint: "Changing an option makes the rules “my own”.",
    f_start: "Start playing",
    f_resume: "Continue the saved game",
    starting: "Setting the table…",
    options_fallback: "Could not read the server's options; showing the usual ones.",
    opt_sum_cards: "A sum takes",
    opt_capture: "Capturing",
    opt_caida_limpia_points: "Caída y limpia is worth",
    opt_ronda_points: "Ronda is worth",
    opt_four_of_a_kind: "Four of a kind",
    opt_caida_ronda_points: "Caída a la ronda is worth",
    opt_ronda_limit: "No ronda from",
    opt_treinta_y_ocho: "38 que no juega",
    opt_cuatro_caidas_gana: "Four caídas in a row win the chica",
    opt_carton_short: "If nobody has 20 cards",
    opt_caida_across_deals: "Caída on the last card of the previous deal",
    opt_carton_cap: "The cartón counts up to",
    opt_target: "A chica is won with",
    opt_chicas: "Chicas to win the mesa",
    opt_zapatero_wins_mesa: "Leaving the other side zapatero wins the mesa",
    opt_players: "Players",
    ch_two_or_more: "two or more cards",
    ch_two: "two cards only",
    ch_auto: "everything is taken for you",
    ch_manual: "declared, with claims",
    ch_wins_chica: "win the chica",
    ch_points: "are worth 4 (doble ronda)",
    ch_most_cards: "2 points to whoever has more",
    ch_dos_por_dar: "dos por dar: the dealer's side only",
    ch_true: "yes",
    ch_false: "no",
    ch_points_n: "{n} points",
    ch_off: "not played",
    ch_no_limit: "no limit",
    ch_no_cap: "every card",
    ch_cards_n: "{n} cards",
    ch_chicas_n: "{n}",
    table_title: "The table",
    you: "You",
    computer: "Computer",
    partner: "Partner",
    rival_right: "Right opponent",
    rival_left: "Left opponent",
    player_n: "Player {n}",
    team_yours: "Your team",
    team_rivals: "Opponents",
    seat_you_tag: "you",
    seat_partner_tag: "partner",
    seat_computer_level: "computer · {level}",
    seat_person: "person",
    hand_count: "{n} cards in hand",
    hand_count_1: "1 card in hand",
    pile_count: "Cartón: {n}",
    pile_aria: "{n} cards taken",
    dealer_tag: "deals",
    dealer_aria: "dealer",
    score_title: "Score",
    score_aria: "{team}: {points}",
    chicas_label: "Chicas",
    target_label: "chica to {n}",
    hand_label: "Hand {hand}",
    mesa_label: "Mesa {n}",
    deal_label: "deal {deal} of {deals}",
    stock_label: "Stock: {n}",
    table_label: "Cards on the table",
    table_empty: "The table is empty.",
    last_drop_badge: "last",
    last_drop_aria: "just dropped: taking it by pair is a caída",
    your_hand: "Your hand",
    your_pile: "Your cartón: {n}",
    team_pile: "Your team's cartón: {n}",
    ayudas: "Ayudas (hints)",
    ayudas_on: "Ayudas: on",
    ayudas_off: "Ayudas: off",
    log_title: "What happened in this hand",
    rondas_label: "Rondas: {list}",
    status_connecting: "Connecting to the table…",
    status_reconnecting: "Connection lost; reconnecting…",
    status_your_turn: "Your turn: tap a card to play it.",
    status_your_turn_keys: "Your turn: tap a card (or keys 1-5 and Enter).",
    status_your_turn_claim: "Your turn: you may claim what was forgotten before you play.",
    status_turn_of: "{name} to play…",
    status_sending: "Playing…",
    status_finished: "The mesa is over.",
    status_no_game: "No game in progress.",
    not_your_turn: "It is not your turn yet.",
    card_no_move: "That card cannot be played now.",
    hint_takes: "takes",
    hint_caida: "Caída!",
    hint_limpia: "limpia",
    hint_warn_caida: "risk: caída",
    hint_warn_limpia: "risk: limpia",
    hint_takes_aria: "takes something",
    hint_caida_aria: "makes a caída",
    hint_limpia_aria: "clears the table (limpia)",
    hint_warn_caida_aria: "careful: may leave the next player an easy caída",
    hint_warn_limpia_aria: "careful: may leave the next player an easy limpia",
    choice_title: "What do you do with {card}?",
    choice_help: "Choose a move.",
    opt_take: "Take {base}",
    opt_take_run: "Take {base} and the escalera {run}",
    opt_drop: "Take nothing: leave {card} on the table",
    tag_caida: "caída",
    tag_limpia: "limpia",
    tag_short: "leaves {cards}: the next player may claim it",
    tag_forgets: "what you do not take the next player may claim",
    cancel: "Cancel",
    claims_title: "{victim} did not take all it could. Before you play you may claim:",
    claim_btn: "Claim {cards}",
    draw_title: "Draw for the deal",
    draw_text: "Everyone draws a card: the highest deals.",
    draw_again: "A tie: draw again.",
    draw_dealer: "{name} deals.",
    draw_note: "{name} deals: drew the highest card in the draw.",
    summary_title: "End of hand {n}",
    summary_team: "Team",
    summary_cards: "Cards",
    summary_carton: "Cartón",
    summary_score: "Score",
    summary_leftovers: "Left on the table, belonging to nobody:",
    summary_clean: "The table was left empty.",
    summary_no_carton: "no cartón",
    summary_most_cards: "+{n} for more cards",
    summary_dos_por_dar: "+{n} dos por dar",
    summary_chica: "{team} wins chica {n}, {won} to {lost}!",
    summary_abandoned: "The chica was decided before the hand ended.",
    continue: "Continue",
    result_title: "Result of the mesa",
    result_you_win: "You won the mesa!",
    result_team_win: "Your team won the mesa!",
    result_you_lose: "You lost the mesa.",
    result_team_lose: "Your team lost the mesa.",
    result_chicas: "Chicas: {a} to {b}",
    result_by_zapatero: "The mesa was won by leaving the other side zapatero.",
    result_chica_line: "Chica {n}: {scores} — {team} wins",
    result_zapatero: "{team} was left zapatero",
    result_platillo: "{team} was left platillo",
    play_again: "Play again",
    download_record: "Download the game",
    err_title: "Notice",
    err_stale: "The table changed before your move: look again and play again.",
    err_not_your_turn: "It is not your turn yet.",
    err_illegal_move: "That move is not allowed: {message}",
    err_unknown_room: "The saved game was not found; start a new one.",
    err_bad_token: "This game does not belong to this browser; start a new one.",
    err_game_over: "The mesa is already over.",
    err_not_finished: "The mesa is not over yet.",
    err_corrupt_room: "The saved game cannot be read: {message}",
    err_not_joined: "Not at the table yet; connecting again.",
    err_bad_message: "The server did not understand the message: {message}",
    err_bad_version: "The page and the server do not agree (version). Reload the page.",
    err_generic: "Error: {message}",
    err_network: "Could not reach the server. Is “cuarenta serve” running?",
    err_create: "Could not create the game: {message}",
    dismiss: "Close",
    history_title: "History",
    history_intro: "The games finished in this browser.",
    history_empty: "You have not finished any game in this browser yet.",
    stats_title: "Statistics by level",
    stats_empty: "No statistics yet.",
    col_date: "Date",
    col_level: "Level",
    col_players: "Players",
    col_rules: "Rules",
    col_result: "Result",
    col_record: "Record",
    col_played: "Played",
    col_won: "Won",
    col_caidas: "Caídas",
    col_limpias: "Limpias",
    res_won: "won",
    res_lost: "lost",
    record_link: "download",
    loading: "Loading…",
    points_n: "{n} points",
    perros_tantos: "{points}: {words}",
    perro_1: "1 perro",
    perro_n: "{n} perros",
    tanto_1: "1 tanto",
    tanto_n: "{n} tantos",
    and: "and",
    points_for: "+{points} for {team}",
    no_points: "no points",
    note_treinta_y_ocho: "38 que no juega: at 38 only a caída scores",
    note_treinta_y_ocho_caida: "at 38 a caída is worth only 2: 38 que no juega",
    note_ronda_limit: "no ronda past the ronda limit",
    note_ronda_limit_caida: "a plain caída: no caída a la ronda past the ronda limit",
    note_generic: "rule {note}",
    ev_dealer_draw: "Draw for the deal: {draws}. {dealer} deals.",
    ev_dealer_draw_card: "{seat} draws {card}",
    ev_dealer_draw_again: "; a tie, draw again: ",
    ev_deal: "Hand {hand}, deal {deal} of {deals}: {dealer} deals.",
    ev_ronda: "Ronda! {seat} holds three {rank}: {points}.",
    ev_four_wins: "Four {rank} in the hand of {seat}! {team} wins the chica.",
    ev_four_points: "Double ronda! {seat} holds four {rank}: {points}.",
    ev_play_drop: "{seat} plays {card} and takes nothing.",
    ev_play_take: "{seat} plays {card} and takes {base}.",
    ev_play_take_run: "{seat} plays {card} and takes {base}, then the run {run}.",
    ev_caida: "Caída! {seat} catches the {card} that {victim} just dropped: {points}.",
    ev_limpia: "Limpia! {seat} clears the table: {points}.",
    ev_caida_limpia: "Caída y limpia! {seat} catches the {card} that {victim} just dropped and clears the table: {points}.",
    ev_caida_ronda: "Caída a la ronda! {seat} catches the {card} of {victim}'s ronda: {points}.",
    ev_caida_ronda_limpia:
      "Caída a la ronda y limpia! {seat} catches the {card} of {victim}'s ronda and clears the table: {points}.",
    ev_claim: "{seat} claims {cards}, which {victim} did not take.",
    ev_hand_end: "End of the hand. Cards taken: {piles}. {leftovers}",
    ev_hand_end_pile: "{team} {cards}",
    ev_hand_end_leftovers: "Left on the table, belonging to nobody: {cards}.",
    ev_hand_end_clean: "The table was left empty.",
    ev_carton: "Cartón of {team}: {cards} cards, {points}.",
    ev_carton_most: "{team} took more cards ({cards}): {points}.",
    ev_carton_dos_por_dar: "Dos por dar: {team}, the dealer's side, took more cards ({cards}): {points}.",
    ev_carton_none: "{team}: {cards} cards, no cartón points.",
    ev_chica_won: "{team} wins chica {chica}, {won} to {lost}!",
    ev_chica_won_four: "{team} wins chica {chica} with four of a kind ({won} to {lost})!",
    ev_chica_won_caidas: "{team} wins chica {chica} with four caídas in a row ({won} to {lost})!",
    ev_zapatero: "{team} is left zapatero, with only {points} points.",
    ev_platillo: "{team} is left platillo: not a single point!",
    ev_mesa_won: "{team} wins the mesa! Chicas: {won} to {lost}.",
    ev_mesa_won_zapatero: "{team} wins the mesa by zapatero! Chicas: {won} to {lost}.",
    ev_unknown: "Event: {kind}.",
  },
};

const RANK_NAMES = {
  es: { A: "as", J: "jota", Q: "reina", K: "rey" },
  en: { A: "ace", J: "jack", Q: "queen", K: "king" },
};
const RANK_PLURALS = {
  es: ["ases", "doses", "treses", "cuatros", "cincos", "seises", "sietes", "jotas", "reinas", "reyes"],
  en: ["aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "jacks", "queens", "kings"],
};
const SUIT_NAMES = {
  es: { h: "corazón rojo", s: "corazón negro", d: "brillo", c: "trébol" },
  en: { h: "hearts", s: "spades", d: "diamonds", c: "clubs" },
};

// The sayings ("Dichos del cuarenta", seed 000): key → [Spanish saying, English gloss].
// The same keys as SAYINGS in src/cuarenta/i18n.py, plus voy_llucho.
const SAYINGS = {
  dos_por_guapo: ["¡{n} por guapo!", "“{n} for the handsome one”: points for a ronda"],
  mosero: ["¡Mosero!", "a caída made with a 3"],
  cuatrero: ["¡Cuatrero has de ser!", "“a rustler you must be”: a caída made with a 4"],
  la_muda: ["¡Aquí está la muda!", "“here is the change of clothes”: a caída made with a 6"],
  q_lo_que_caiga: ["¡Q lo que caiga!", "“whatever falls”: a caída made with the Q"],
  nobleza: ["¡Nobleza declarada!", "“nobility declared”: a caída made with a 2"],
  joto: ["¡Joto!", "a caída made with the jack, la jota"],
  treinta_y_ocho: [
    "¡Treinta y ocho que no juega!",
    "“38 does not play”: from now on this side scores only with a caída",
  ],
  zapatero: ["¡Zapatero!", "“shoemaker”: the loser did not even make 10 points"],
  platillo: ["¡Platillo!", "“the saucer”: the loser did not make a single point"],
  capariche: ["¡Capariche!", "a caída or limpia that takes a lot of cards"],
  as_que_no_caeras: ["¡As que no caerás!", "“an ace you will not fall on”: an ace dropped on the table"],
  marido_tiene: ["¡Marido tiene!", "“she has a husband”: the partner pays back a caída"],
  voy_llucho: ["¡Voy llucho!", "“I go naked”: a card dropped on a table just cleared"],
};
const NUMBER_WORDS = {
  es: { 2: "Dos", 4: "Cuatro", 6: "Seis", 8: "Ocho", 10: "Diez" },
  en: { 2: "two", 4: "four", 6: "six", 8: "eight", 10: "ten" },
};
const CAIDA_SAYINGS = { 2: "nobleza", 3: "mosero", 4: "cuatrero", 6: "la_muda", J: "joto", Q: "q_lo_que_caiga" };
export const CAPARICHE_CARDS = 5;
const CAIDA_KINDS = new Set(["caida", "caida_limpia", "caida_ronda"]);

let current = null;

/** The page's language: the stored choice, else Spanish. */
export function getLang() {
  if (current) return current;
  let stored = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch {
    stored = null;
  }
  current = LANGS.includes(stored) ? stored : "es";
  return current;
}

export function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  current = lang;
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = lang;
}

export function hasKey(key) {
  return key in MESSAGES[getLang()];
}

/** The message `key` in the page's language with {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const lang = getLang();
  const template = MESSAGES[lang][key] ?? MESSAGES.es[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Fill every element marked data-i18n (text), data-i18n-aria, data-i18n-title, data-i18n-placeholder. */
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** The card in words, for accessible names: "7 de corazón rojo", "as de trébol", "queen of hearts". */
export function cardLabel(code) {
  const c = parseCard(code);
  if (!c) return String(code);
  const lang = getLang();
  const rank = RANK_NAMES[lang][c.rank] ?? c.rank;
  const suit = SUIT_NAMES[lang][c.suit];
  return lang === "es" ? `${rank} de ${suit}` : `${rank} of ${suit}`;
}

export function rankPlural(rank) {
  const i = "A234567JQK".indexOf(rank);
  return i < 0 ? String(rank) : RANK_PLURALS[getLang()][i];
}

export function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

/** Points as perros (10) and tantos (2): [perros, tantos]. */
export function tantosPerros(points) {
  const p = Math.max(0, Number(points) || 0);
  return [Math.floor(p / 10), Math.floor((p % 10) / 2)];
}

/** "14: 1 perro y 2 tantos". */
export function pointsWords(points) {
  const [perros, tantos] = tantosPerros(points);
  const words = [];
  if (perros) words.push(perros === 1 ? t("perro_1") : t("perro_n", { n: perros }));
  if (tantos) words.push(tantos === 1 ? t("tanto_1") : t("tanto_n", { n: tantos }));
  if (!words.length) return String(points);
  return t("perros_tantos", { points, words: words.join(` ${t("and")} `) });
}

// -- moves in the engine's notation -------------------------------------------------------------

/** Parse "7h x3c+4d,Js" → {card, base: [...], run: [...]}; "claim 5s,6h" → {claim: [...]}. */
export function parseMove(text) {
  const s = String(text).trim();
  if (s.startsWith("claim")) {
    const rest = s.slice(5).trim();
    return { claim: rest ? rest.split(",").map((x) => x.trim()) : [] };
  }
  const [card, taken] = s.split(/\s+x/);
  if (!taken) return { card: card.trim(), base: [], run: [] };
  const [base, ...run] = taken.split(",");
  return { card: card.trim(), base: base.split("+").map((x) => x.trim()), run: run.map((x) => x.trim()) };
}

// -- event sentences ----------------------------------------------------------------------------

function noteText(note, caida) {
  if (note === "treinta_y_ocho") return t(caida ? "note_treinta_y_ocho_caida" : "note_treinta_y_ocho");
  if (note === "ronda_limit") return t(caida ? "note_ronda_limit_caida" : "note_ronda_limit");
  return t("note_generic", { note });
}

function awardText(points, team, note, caida = false) {
  let text = points ? t("points_for", { points, team }) : t("no_points");
  if (note) text += ` (${noteText(note, caida)})`;
  return text;
}

/**
 * One sentence telling what happened. `names` has seat(i) and team(i) (display names) and
 * `players` (2 or 4).
 */
export function describeEvent(e, names) {
  const seat = (i) => names.seat(i);
  const team = (i) => names.team(i);
  switch (e.kind) {
    case "dealer_draw": {
      const rounds = (e.draws || []).map((round) =>
        round.map(([s, c]) => t("ev_dealer_draw_card", { seat: seat(s), card: cardText(c) })).join(", "),
      );
      return t("ev_dealer_draw", { draws: rounds.join(t("ev_dealer_draw_again")), dealer: seat(e.dealer) });
    }
    case "deal":
      return t("ev_deal", {
        hand: e.hand + 1,
        deal: e.deal + 1,
        deals: 40 / (5 * names.players),
        dealer: seat(e.dealer),
      });
    case "ronda":
      return t("ev_ronda", {
        seat: seat(e.seat),
        rank: rankPlural(e.rank),
        points: awardText(e.points, team(e.team), e.note),
      });
    case "four_of_a_kind":
      if (e.wins_chica) return t("ev_four_wins", { seat: seat(e.seat), rank: rankPlural(e.rank), team: team(e.team) });
      return t("ev_four_points", {
        seat: seat(e.seat),
        rank: rankPlural(e.rank),
        points: awardText(e.points, team(e.team), e.note),
      });
    case "play": {
      const m = parseMove(e.move);
      const card = cardText(m.card);
      if (!m.base.length) return t("ev_play_drop", { seat: seat(e.seat), card });
      const base = m.base.map(cardText).join(" + ");
      if (!m.run.length) return t("ev_play_take", { seat: seat(e.seat), card, base });
      return t("ev_play_take_run", { seat: seat(e.seat), card, base, run: cardsText(m.run) });
    }
    case "caida":
      return t("ev_caida", {
        seat: seat(e.seat),
        card: cardText(e.card),
        victim: seat(e.victim),
        points: awardText(e.points, team(e.team), e.note, true),
      });
    case "limpia":
      return t("ev_limpia", { seat: seat(e.seat), points: awardText(e.points, team(e.team), e.note) });
    case "caida_limpia":
      return t("ev_caida_limpia", {
        seat: seat(e.seat),
        card: cardText(e.card),
        victim: seat(e.victim),
        points: awardText(e.points, team(e.team), e.note, true),
      });
    case "caida_ronda":
      return t(e.limpia ? "ev_caida_ronda_limpia" : "ev_caida_ronda", {
        seat: seat(e.seat),
        card: cardText(e.card),
        victim: seat(e.victim),
        points: awardText(e.points, team(e.team), e.note, true),
      });
    case "claim":
      return t("ev_claim", {
        seat: seat(e.seat),
        cards: cardsText(e.cards || []),
        victim: seat((e.seat + names.players - 1) % names.players),
      });
    case "hand_end": {
      const piles = (e.pile_sizes || []).map((n, i) => t("ev_hand_end_pile", { team: team(i), cards: n })).join(", ");
      const leftovers = e.leftovers && e.leftovers.length
        ? t("ev_hand_end_leftovers", { cards: cardsText(e.leftovers) })
        : t("ev_hand_end_clean");
      return t("ev_hand_end", { piles, leftovers });
    }
    case "carton": {
      const key = { carton: "ev_carton", most_cards: "ev_carton_most", dos_por_dar: "ev_carton_dos_por_dar" }[
        e.reason ?? ""
      ] ?? "ev_carton_none";
      return t(key, { team: team(e.team), cards: e.cards, points: awardText(e.points, team(e.team), e.note) });
    }
    case "chica_won": {
      const key = { four_of_a_kind: "ev_chica_won_four", cuatro_caidas: "ev_chica_won_caidas" }[e.reason] ?? "ev_chica_won";
      return t(key, {
        team: team(e.team),
        chica: e.chica + 1,
        won: e.scores[e.team],
        lost: e.scores[1 - e.team],
      });
    }
    case "zapatero":
      return e.platillo
        ? t("ev_platillo", { team: team(e.team) })
        : t("ev_zapatero", { team: team(e.team), points: e.points });
    case "mesa_won":
      return t(e.reason === "zapatero" ? "ev_mesa_won_zapatero" : "ev_mesa_won", {
        team: team(e.team),
        won: e.chicas[e.team],
        lost: e.chicas[1 - e.team],
      });
    default:
      return t("ev_unknown", { kind: e.kind });
  }
}

// -- sayings ------------------------------------------------------------------------------------

/**
 * Keys of the sayings that fit an event, most fitting first: the same conditions as
 * saying_keys() in src/cuarenta/i18n.py, plus voy_llucho. `ctx` = {players, move (parsed, the move
 * that caused the event), scores (after the event), target, treintaYOcho, lastCaida [seat, victim],
 * tableWasCleared (the previous play left the table empty by a limpia)}.
 */
export function sayingKeys(e, ctx) {
  const keys = [];
  if (e.kind === "play") {
    const m = parseMove(e.move);
    if (!m.base.length && ctx.tableWasCleared) keys.push("voy_llucho");
    if (!m.base.length && m.card && m.card[0] === "A") keys.push("as_que_no_caeras");
    return keys;
  }
  if (e.kind === "zapatero") return [e.platillo ? "platillo" : "zapatero"];
  if (
    (CAIDA_KINDS.has(e.kind) || e.kind === "limpia") &&
    ctx.move &&
    ctx.move.base &&
    ctx.move.base.length + ctx.move.run.length >= CAPARICHE_CARDS
  ) {
    keys.push("capariche");
  }
  if (CAIDA_KINDS.has(e.kind)) {
    const key = CAIDA_SAYINGS[String(e.card)[0]];
    if (key) keys.push(key);
    const last = ctx.lastCaida;
    if (ctx.players === 4 && last && last[0] === e.victim && last[1] === (e.seat + 2) % 4) keys.push("marido_tiene");
  }
  if (e.kind === "ronda" && e.points > 0) keys.push("dos_por_guapo");
  if (
    ctx.treintaYOcho &&
    ctx.scores &&
    typeof e.points === "number" &&
    e.points > 0 &&
    typeof e.team === "number" &&
    e.kind !== "chica_won" &&
    ctx.scores[e.team] === ctx.target - 2
  ) {
    keys.push("treinta_y_ocho");
  }
  return keys;
}

/** A saying in the page's language: the Spanish words, and in English a gloss after them. */
export function sayingText(key, points = 2) {
  const entry = SAYINGS[key];
  if (!entry) return null;
  const lang = getLang();
  const spanish = entry[0].replace("{n}", NUMBER_WORDS.es[points] ?? String(points));
  if (lang === "es") return spanish;
  return { words: spanish, gloss: entry[1].replace("{n}", NUMBER_WORDS.en[points] ?? String(points)) };
}

/** The saying as one line of text. */
export function sayingLine(key, points = 2) {
  const s = sayingText(key, points);
  if (s === null) return null;
  return typeof s === "string" ? s : `“${s.words}” (${s.gloss})`;
}
