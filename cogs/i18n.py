"""English and German: replies by the interaction's locale (``t``), command names and
descriptions through discord.py's :class:`~discord.app_commands.Translator`.

Game data (unit names, rule texts from a ruleset) stays as the ruleset wrote it; a ruleset can
add translations of its command descriptions with ``Command.description_i18n``.
"""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from engine.core.errors import HINTS_SHOWN
from engine.core.info import WORDS as INFO_WORDS

log = logging.getLogger("umpire.discord")

LANGUAGES = ("en", "de")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "oops": "Sorry, something went wrong on our side. The game is unchanged; please try "
        "again, and tell the bot's operator if it keeps happening.",
        "illegal": "Not allowed: {why}",
        "refused": "That did not work: {why}",
        "ambiguous_name": "{option}:{typed} could mean more than one thing; type the id or more "
        "of the name. It could be: {candidates}.",
        "storage_failed": "The bot cannot save right now: its database reports a problem. "
        "Nothing was changed; the operator finds the cause in the bot's log. "
        "Please try again later.",
        "storage_uncertain": "The connection to the bot's database broke while it was saving: "
        "that may or may not have been saved. Look at the game's latest "
        "board before you try again; the operator finds the cause in the "
        "bot's log.",
        "stale": "That board is out of date (it shows version {expected}, the game is at "
        "version {current}). Nothing was done; use the latest board.",
        "stale_pointer": "That board is out of date; nothing was done. The current board: {link}",
        "stale_command": "The game moved on while your command was on its way (someone acted "
        "at the same moment); nothing was done. The current board: {link}",
        "not_active": "No moves now: {why}",
        "no_game_id": "{why}",
        "no_game_here": "There is no game in this channel. Use the game's thread, or start one "
        "with /game new (see /game list).",
        "not_seated": "You have no seat in this game. Join a side with /game join.",
        "not_seated_side": "{why}",
        "not_your_turn": "It is not your turn. The game waits for {waiting}.",
        "not_your_decision": "That choice is not yours: it is {side}'s ({people}).",
        "decision_placeholder": "Choose for {side}…",
        "not_running": "The game is not running (it is {status}).",
        "not_referee": "Only a referee (the game's creator or the server's referee role) may "
        "do that.",
        "need_manage_guild": "You need the Manage Server permission to change Umpire's settings.",
        "unknown_ruleset": "There is no game called {name!r}. Games: {names}.",
        "bad_scenario": "That scenario cannot be used, no game was opened: {why}. "
        "Scenarios of {game}: {names}, or attach your own JSON file with the "
        "scenario_file option.",
        "unknown_scenario": "There is no such scenario, no game was opened. Scenarios of "
        "{game}: {names}, or attach your own JSON file with the "
        "scenario_file option.",
        "scenario_name_and_file": "Give either a scenario name or a scenario file, not both; "
        "no game was opened. Scenarios of {game}: {names}.",
        "scenario_file_too_large": "That scenario file is larger than {kib} KiB; no game was "
        "opened.",
        "unknown_optional_rule": "{game} has no optional rule {name!r}; no game was opened. "
        "Its optional rules: {names}.",
        "optional_rules_too_long": "Name at most {limit} characters of optional rules; no game "
        "was opened. Optional rules of {game}: {names}.",
        "optional_rules_on": "Optional rules: {rules}",
        "unknown_side": "There is no side {side!r}. Sides: {sides}.",
        "empty_sides": "Nobody plays {sides} yet; every side needs a player (/game join).",
        "member_not_seated": "{user} has no seat in this game.",
        "join_closed": "This game has started; only a referee can seat players now (/ref seat).",
        "bad_syntax": "I cannot read that action: {why}",
        "bad_hex": "{hex!r} is not a cell label (like 0507 or C4).",
        "flare_off_map": "{hex} is not a cell of this game's board; nothing was marked.",
        "undo_refused": "{why} A referee can still take it back with /ref undo.",
        "missing_permissions": "Discord did not let me do that ({why}). I need View Channel, "
        "Send Messages, Send Messages in Threads, Create Public Threads, "
        "Embed Links, Attach Files and Read Message History here.",
        "ok": "Done.",
        "post_failed": "The game is updated, but posting to the thread failed; /game board "
        "posts the current board.",
        "ok_post_failed": "Done, but posting to the thread failed; /game board posts the "
        "current board.",
        "done": "Done: {action}",
        "only_you": "Only you can see this:",
        "since_last": "Since you last acted:",
        "legal_now": "You can do now:",
        "nothing_now": "Nothing to do for you right now.",
        "more": "…and {count} more (type in /act to filter).",
        "result": "Result",
        "created": "Game #{id} is open in {thread}.",
        "lobby": "{user} opened **{title}** (scenario {scenario}). Sides: {sides}. Take a seat "
        "with /game join, then the creator or a referee runs /game start.",
        "lobby_setup": "This scenario begins with setting up: place your units one by one, or "
        "all that are left at once, legally at random, with /auto-setup.",
        "lobby_suggested": "It also suggests a deployment for each side: take yours in one "
        "command with /suggested.",
        "lobby_ready": "To start playing at once, open a ready scenario instead: {names}, e.g. "
        "/game new ruleset:{ruleset} scenario:{scenario}",
        "joined": "{user} plays {side}.",
        "you_joined": "You play {side}.",
        "seated_count": "{count} seated",
        "started": "The game has started. Hash of the secret dice seed: `{hash}` — when the "
        "game ends the seed is revealed and /game verify checks every die.",
        "waiting_for": "Waiting for: {sides}",
        "your_move": "{people}, your move.",
        "game_over": "Game over. Winner: {winner} ({reason}).",
        "ended_by_resign": "{side} resigned",
        "ended_by_time": "{side} ran out of time",
        "narrated_resign": "{side} resigned",
        "narrated_time": "{side} ran out of time",
        "nobody": "nobody",
        "seed_revealed": "Dice seed: `{seed}` (check it with /game verify).",
        "paused": "The game is paused by the referee.",
        "version_footer": "Version {version} · buttons act on this version only",
        "board_posted": "Board posted.",
        "board_after": "The board after turn {turn}:",
        "board_link": "Current board: {link}",
        "clock_left": "Clock {side}: {time} left",
        "empty_seat": "(empty)",
        "log_title": "Game #{id}: recent actions",
        "log_empty": "Nothing has happened yet.",
        "resigned": "{user} resigns for {side}.",
        "no_games": "No games here yet. Start one with /game new.",
        "replay": "Game #{id} so far:",
        "verify_ok": "Verified: {actions} actions and {dice} dice replay exactly from the "
        "revealed seed (final state {hash}…).",
        "verify_bad": "Verification FAILED ({actions} actions, {dice} dice):",
        "verify_not_yet": "The dice seed stays secret until the game ends (its hash: "
        "`{hash}`); then /game verify replays every die with it.",
        "config_saved": "Saved. Referee role: {role}; language of public posts: {language}.",
        "flare": "🔶 {user} marks {hex}.",
        "flare_done": "Flare at {hex}.",
        "undone_by": "↩️ {user} took back {side}'s last action.",
        "undo_ok": "Your last action was taken back.",
        "undo_requested": "{user} asks a referee to take back the last action (/ref undo).",
        "ref_undo": "{referee} took back the last action (it stays in the audit log).",
        "ref_place": "{referee} placed {unit} on {to}.",
        "ref_remove": "{referee} removed {unit}.",
        "ref_phase": "{referee} set the phase to {phase} (active: {side}).",
        "ref_seat": "{referee} seated {user} on {side}.",
        "ref_kick": "{referee} removed {user} from the game.",
        "ref_paused": "{referee} paused the game; clocks are stopped.",
        "ref_resumed": "{referee} resumed the game.",
        "ref_clock": "{referee} set {side}'s clock to {hours} h.",
        "reminder": "⏰ {people}: {side} is to move ({time} left on the clock). Board: {link}",
        "timeout_referee": "⌛ {side}'s clock ran out. The game is paused for the referee.",
        "timeout_forfeit": "⌛ {side}'s clock ran out; {side} forfeits.",
        "button_end": "End phase",
        "button_undo": "Undo request",
        "button_opts": "Show my options",
        "status_lobby": "waiting for players",
        "status_active": "running",
        "status_paused": "paused",
        "status_finished": "finished",
        "too_long": "The option `{option}` is too long ({length} characters; at most {limit}). "
        "Nothing was done.",
        "bad_input": "That option value is not valid here. Nothing was done; pick a value from "
        "the list or check the command's help.",
        "cooldown": "Please wait: you can use /{command} again in {seconds} s.",
        "busy_game": "Game #{id} is already drawing a replay or checking its log; try again in "
        "a moment.",
        "busy_overall": "The bot is busy with other games' replays right now; try again in a "
        "moment.",
        "busy_load": "The bot is very busy right now, try again in a moment. Nothing was changed.",
        "replay_too_big": "The replay does not fit in a Discord attachment even at its "
        "smallest; try /game board turn:N instead.",
        "replay_unreadable": "The replay could not read this game's log just now; nothing was "
        "changed. Try /game replay again in a moment.",
        "too_many_games_user": "You already have {count} open games here (this server allows "
        "{limit} per member). Finish or resign one first.",
        "too_many_games_guild": "This server already has {count} open games (it allows "
        "{limit}). Finish some first, or ask an admin to raise the "
        "limit with /umpire config.",
        "config_limits": "Open games allowed: {per_user} per member, {per_guild} per server.",
        "flare_not_allowed": "Only the game's players and referees can mark cells.",
        "service_only": "/{command} is not a move. To give up, use /game resign.",
        "log_undone": "  ↩️ undone by {who}",
        "log_undone_title": "~~{line}~~",
        "undo_consent_needed": "You play {sides} in this game, and the last action rolled "
        "dice. Taking it back needs the other side's agreement: I "
        "asked them in the thread.",
        "undo_consent_request": "⚖️ {referee} (referee, playing {sides}) wants to take back "
        "the last action: {action}. Its dice: {dice}. A player of "
        "{others} must agree with the button below.",
        "undo_consent_button": "Agree to take it back",
        "undo_consent_not_yours": "Only a player of {others} can agree to this.",
        "undo_agreed": "⚖️ {referee} took back the last action with the agreement of {user} "
        "(it stays in the audit log).",
        "referee_consent": "referee {referee}, agreed by {user}",
        "left": "{user} leaves {side}.",
        "you_left": "You left {side}; /game join takes a seat again.",
        "leave_started": "The game has started: a seat is left by /game resign (or a referee's "
        "/ref kick).",
        "cancel_started": "The game has started: it cannot be cancelled any more. A side gives "
        "up with /game resign.",
        "cancelled": "🚫 {user} cancelled this game before it started.",
        "rematch_not_yours": "Only the game's players and referees can ask for a rematch.",
        "rematch_not_finished": "A rematch opens once this game is over.",
        "rematch_seats": "Rematch of game #{id}, same seats: {seats}. The creator or a referee "
        "runs /game start.",
        "help_flow": "**Umpire** referees wargames, one game per thread. How a game flows: "
        "/game new ruleset:… opens it → each player takes a side with /game join "
        "side:… (/game leave gives it up) → the creator or a referee runs /game "
        "start (or /game cancel) → in the thread, the turn post says whose turn it "
        "is; act with the game's commands (options autocomplete) or /act, take "
        "back with /undo; /game status, /game log and /game rules tell you more, "
        "/info unit:… or /info cell:… explains one unit or cell → "
        "once it is over, /game verify checks every die and /game rematch plays "
        "again.",
        "help_no_game": "There is no game in this channel: open one with /game new, or run "
        "/help in a game's thread for its commands.",
        "help_game": "**{title}** #{id} ({status}). Its commands:",
        "help_examples": "You could type now:",
        "help_questions": "Questions anyone may ask at any time (the answer is yours only):",
        "turn_notice": "⏳ {title} #{id}: {side} is to act. {link}",
        "notify_on": "I will send you a direct message when your side is to act in this game "
        "(/game notify on:False stops it). Your DMs from this server must be open.",
        "notify_off": "No more direct messages for this game.",
        "exported": "The game as one page (boards: {frames}, actions: {actions}; open it in "
        "any browser, offline) and its JSON log:",
        "act_more": "+{count} more (type a name or cell to narrow)",
        "autocomplete_wait": "Not your turn: the game waits for {sides}",
        "flow_turn": "{word} {turn} begins",
        "flow_phase": "phase: {phase}",
        "flow_to_act": "to act: {sides}",
        "flow_owed": "{side} owes a decision ({what}): {commands}",
        "flow_ended": "{side} ended the phase",
        "flow_dice": "decided by the dice: {dice}",
        "flow_after": "after {action}, the game moves on by its rules",
        "flow_skipped": "{side} had nothing left to do in {phase}",
        "flow_decided": "{side} made the decision",
    },
    "de": {
        "oops": "Entschuldigung, bei uns ist etwas schiefgegangen. Die Partie ist unverändert; "
        "bitte versuche es noch einmal und sag dem Betreiber Bescheid, wenn es wieder "
        "passiert.",
        "illegal": "Nicht erlaubt: {why}",
        "refused": "Das ging nicht: {why}",
        "ambiguous_name": "{option}:{typed} passt auf mehreres; gib die Kennung oder mehr vom "
        "Namen an. Gemeint sein kann: {candidates}.",
        "storage_failed": "Der Bot kann gerade nicht speichern: seine Datenbank meldet ein "
        "Problem. Es wurde nichts geändert; der Betreiber findet die Ursache "
        "im Log des Bots. Bitte versuche es später noch einmal.",
        "storage_uncertain": "Die Verbindung zur Datenbank des Bots ist beim Speichern "
        "abgerissen: Das kann gespeichert worden sein oder auch nicht. Sieh "
        "dir das neueste Brett der Partie an, bevor du es noch einmal "
        "versuchst; der Betreiber findet die Ursache im Log des Bots.",
        "stale": "Dieses Brett ist veraltet (es zeigt Stand {expected}, die Partie ist bei "
        "Stand {current}). Es wurde nichts ausgeführt; nimm das neueste Brett.",
        "stale_pointer": "Dieses Brett ist veraltet; es wurde nichts ausgeführt. Aktuelles "
        "Brett: {link}",
        "stale_command": "Die Partie ging weiter, während dein Befehl unterwegs war (jemand "
        "hat im selben Moment gehandelt); es wurde nichts ausgeführt. "
        "Aktuelles Brett: {link}",
        "not_active": "Gerade keine Züge: {why}",
        "no_game_id": "{why}",
        "no_game_here": "In diesem Kanal läuft keine Partie. Nutze den Thread der Partie oder "
        "starte eine mit /game new (siehe /game list).",
        "not_seated": "Du spielst in dieser Partie nicht mit. Tritt einer Seite mit /game join "
        "bei.",
        "not_seated_side": "{why}",
        "not_your_turn": "Du bist nicht am Zug. Die Partie wartet auf {waiting}.",
        "not_your_decision": "Diese Entscheidung ist nicht deine, sondern die von {side} "
        "({people}).",
        "decision_placeholder": "Wähle für {side} …",
        "not_running": "Die Partie läuft nicht (Status: {status}).",
        "not_referee": "Das darf nur ein Schiedsrichter (wer die Partie erstellt hat oder die "
        "Schiedsrichter-Rolle des Servers).",
        "need_manage_guild": "Dafür brauchst du die Berechtigung „Server verwalten“.",
        "unknown_ruleset": "Es gibt kein Spiel namens {name!r}. Spiele: {names}.",
        "bad_scenario": "Dieses Szenario geht nicht, es wurde keine Partie eröffnet: {why}. "
        "Szenarien von {game}: {names}, oder hänge mit der Option "
        "szenario_datei deine eigene JSON-Datei an.",
        "unknown_scenario": "Dieses Szenario gibt es nicht, es wurde keine Partie eröffnet. "
        "Szenarien von {game}: {names}, oder hänge mit der Option "
        "szenario_datei deine eigene JSON-Datei an.",
        "scenario_name_and_file": "Gib entweder einen Szenarionamen oder eine Szenario-Datei an, "
        "nicht beides; es wurde keine Partie eröffnet. Szenarien von "
        "{game}: {names}.",
        "scenario_file_too_large": "Diese Szenario-Datei ist größer als {kib} KiB; es wurde "
        "keine Partie eröffnet.",
        "unknown_optional_rule": "{game} hat keine Wahlregel {name!r}; es wurde keine Partie "
        "eröffnet. Seine Wahlregeln: {names}.",
        "optional_rules_too_long": "Nenne höchstens {limit} Zeichen Wahlregeln; es wurde keine "
        "Partie eröffnet. Wahlregeln von {game}: {names}.",
        "optional_rules_on": "Wahlregeln: {rules}",
        "unknown_side": "Es gibt keine Seite {side!r}. Seiten: {sides}.",
        "empty_sides": "Für {sides} spielt noch niemand; jede Seite braucht einen Spieler "
        "(/game join).",
        "member_not_seated": "{user} spielt in dieser Partie nicht mit.",
        "join_closed": "Die Partie läuft schon; jetzt kann nur ein Schiedsrichter Spieler "
        "setzen (/ref seat).",
        "bad_syntax": "Diese Aktion kann ich nicht lesen: {why}",
        "bad_hex": "{hex!r} ist keine Feldbezeichnung (wie 0507 oder C4).",
        "flare_off_map": "{hex} ist kein Feld des Spielbretts dieser Partie; nichts wurde "
        "markiert.",
        "undo_refused": "{why} Ein Schiedsrichter kann es noch mit /ref undo zurücknehmen.",
        "missing_permissions": "Discord hat mir das nicht erlaubt ({why}). Ich brauche hier "
        "Kanal ansehen, Nachrichten senden, Nachrichten in Threads senden, "
        "Öffentliche Threads erstellen, Links einbetten, Dateien anhängen "
        "und Nachrichtenverlauf lesen.",
        "ok": "Erledigt.",
        "post_failed": "Die Partie ist aktualisiert, aber der Beitrag im Thread schlug fehl; "
        "/game board zeigt das aktuelle Brett.",
        "ok_post_failed": "Erledigt, aber der Beitrag im Thread schlug fehl; /game board zeigt "
        "das aktuelle Brett.",
        "done": "Ausgeführt: {action}",
        "only_you": "Nur für dich sichtbar:",
        "since_last": "Seit deiner letzten Aktion:",
        "legal_now": "Jetzt möglich:",
        "nothing_now": "Für dich gibt es gerade nichts zu tun.",
        "more": "…und {count} weitere (in /act tippen zum Filtern).",
        "result": "Ergebnis",
        "created": "Partie #{id} ist in {thread} eröffnet.",
        "lobby": "{user} hat **{title}** eröffnet (Szenario {scenario}). Seiten: {sides}. "
        "Setz dich mit /game join an den Tisch; dann startet der Ersteller oder ein "
        "Schiedsrichter mit /game start.",
        "lobby_setup": "Dieses Szenario beginnt mit dem Aufstellen: stell deine Einheiten "
        "einzeln auf oder alle übrigen auf einmal, zufällig und regelgerecht, mit "
        "/auto-setup.",
        "lobby_suggested": "Es schlägt auch jeder Seite eine Aufstellung vor: übernimm deine "
        "mit einem Befehl, /suggested.",
        "lobby_ready": "Wer gleich spielen will, eröffnet stattdessen ein fertig aufgestelltes "
        "Szenario: {names}, z. B. /game new ruleset:{ruleset} scenario:{scenario}",
        "joined": "{user} spielt {side}.",
        "you_joined": "Du spielst {side}.",
        "seated_count": "{count} Spieler",
        "started": "Die Partie hat begonnen. Hash des geheimen Würfel-Seeds: `{hash}` — am "
        "Ende wird der Seed veröffentlicht und /game verify prüft jeden Wurf.",
        "waiting_for": "Am Zug: {sides}",
        "your_move": "{people}, ihr seid am Zug.",
        "game_over": "Partie beendet. Sieger: {winner} ({reason}).",
        "ended_by_resign": "Aufgabe: {side}",
        "ended_by_time": "Bedenkzeit abgelaufen: {side}",
        "narrated_resign": "Aufgabe: {side}",
        "narrated_time": "Bedenkzeit abgelaufen: {side}",
        "nobody": "niemand",
        "seed_revealed": "Würfel-Seed: `{seed}` (prüfen mit /game verify).",
        "paused": "Die Partie ist vom Schiedsrichter angehalten.",
        "version_footer": "Stand {version} · Knöpfe wirken nur auf diesen Stand",
        "board_posted": "Brett gepostet.",
        "board_after": "Das Brett nach Zug {turn}:",
        "board_link": "Aktuelles Brett: {link}",
        "clock_left": "Uhr {side}: noch {time}",
        "empty_seat": "(frei)",
        "log_title": "Partie #{id}: letzte Aktionen",
        "log_empty": "Bisher ist nichts passiert.",
        "resigned": "{user} gibt für {side} auf.",
        "no_games": "Hier gibt es noch keine Partien. Starte eine mit /game new.",
        "replay": "Partie #{id} bisher:",
        "verify_ok": "Geprüft: {actions} Aktionen und {dice} Würfe lassen sich aus dem "
        "veröffentlichten Seed exakt nachspielen (Endstand {hash}…).",
        "verify_bad": "Prüfung FEHLGESCHLAGEN ({actions} Aktionen, {dice} Würfe):",
        "verify_not_yet": "Der Würfel-Seed bleibt bis zum Ende der Partie geheim (sein "
        "Hash: `{hash}`); dann spielt /game verify jeden Wurf damit nach.",
        "config_saved": "Gespeichert. Schiedsrichter-Rolle: {role}; Sprache öffentlicher "
        "Beiträge: {language}.",
        "flare": "🔶 {user} markiert {hex}.",
        "flare_done": "Markierung auf {hex}.",
        "undone_by": "↩️ {user} hat die letzte Aktion von {side} zurückgenommen.",
        "undo_ok": "Deine letzte Aktion wurde zurückgenommen.",
        "undo_requested": "{user} bittet einen Schiedsrichter, die letzte Aktion zurückzunehmen "
        "(/ref undo).",
        "ref_undo": "{referee} hat die letzte Aktion zurückgenommen (sie bleibt im Prüfprotokoll).",
        "ref_place": "{referee} hat {unit} auf {to} gesetzt.",
        "ref_remove": "{referee} hat {unit} entfernt.",
        "ref_phase": "{referee} hat die Phase auf {phase} gesetzt (am Zug: {side}).",
        "ref_seat": "{referee} hat {user} auf {side} gesetzt.",
        "ref_kick": "{referee} hat {user} aus der Partie genommen.",
        "ref_paused": "{referee} hat die Partie angehalten; die Uhren stehen.",
        "ref_resumed": "{referee} hat die Partie fortgesetzt.",
        "ref_clock": "{referee} hat die Uhr von {side} auf {hours} h gestellt.",
        "reminder": "⏰ {people}: am Zug: {side} (noch {time} auf der Uhr). Brett: {link}",
        "timeout_referee": "⌛ Die Uhr von {side} ist abgelaufen. Die Partie wartet auf den "
        "Schiedsrichter.",
        "timeout_forfeit": "⌛ Die Uhr von {side} ist abgelaufen; die Partie ist für {side} "
        "verloren.",
        "button_end": "Phase beenden",
        "button_undo": "Rücknahme anfragen",
        "button_opts": "Meine Optionen",
        "status_lobby": "wartet auf Spieler",
        "status_active": "läuft",
        "status_paused": "angehalten",
        "status_finished": "beendet",
        "too_long": "Die Option `{option}` ist zu lang ({length} Zeichen; höchstens {limit}). "
        "Es wurde nichts geändert.",
        "bad_input": "Dieser Wert ist hier nicht gültig. Es wurde nichts geändert; wähle einen "
        "Wert aus der Liste oder sieh in der Hilfe des Befehls nach.",
        "cooldown": "Bitte warte: /{command} geht wieder in {seconds} s.",
        "busy_game": "Partie #{id} zeichnet gerade schon eine Wiederholung oder prüft ihr "
        "Protokoll; versuche es gleich noch einmal.",
        "busy_overall": "Der Bot ist gerade mit Wiederholungen anderer Partien beschäftigt; "
        "versuche es gleich noch einmal.",
        "busy_load": "Der Bot ist gerade sehr beschäftigt, versuche es gleich noch einmal. Es "
        "wurde nichts geändert.",
        "replay_too_big": "Die Wiederholung passt selbst in kleinster Form nicht in einen "
        "Discord-Anhang; versuche stattdessen /game board turn:N.",
        "replay_unreadable": "Die Wiederholung konnte das Protokoll dieser Partie gerade nicht "
        "lesen; es wurde nichts verändert. Versuche /game replay gleich noch einmal.",
        "too_many_games_user": "Du hast hier schon {count} offene Partien (dieser Server "
        "erlaubt {limit} pro Mitglied). Beende oder gib erst eine auf.",
        "too_many_games_guild": "Dieser Server hat schon {count} offene Partien (erlaubt sind "
        "{limit}). Beendet erst welche, oder bittet einen Admin, die "
        "Grenze mit /umpire config zu erhöhen.",
        "config_limits": "Erlaubte offene Partien: {per_user} pro Mitglied, {per_guild} pro "
        "Server.",
        "flare_not_allowed": "Nur die Spieler und Schiedsrichter der Partie können Felder "
        "markieren.",
        "service_only": "/{command} ist kein Zug. Zum Aufgeben gibt es /game resign.",
        "log_undone": "  ↩️ zurückgenommen von {who}",
        "log_undone_title": "~~{line}~~",
        "undo_consent_needed": "Du spielst in dieser Partie {sides}, und bei der letzten Aktion "
        "wurde gewürfelt. Sie zurückzunehmen braucht die Zustimmung "
        "der anderen Seite: Ich habe sie im Thread gefragt.",
        "undo_consent_request": "⚖️ {referee} (Schiedsrichter, spielt {sides}) möchte die "
        "letzte Aktion zurücknehmen: {action}. Ihre Würfel: {dice}. "
        "Ein Spieler von {others} muss mit dem Knopf unten zustimmen.",
        "undo_consent_button": "Rücknahme zustimmen",
        "undo_consent_not_yours": "Zustimmen kann nur ein Spieler von {others}.",
        "undo_agreed": "⚖️ {referee} hat die letzte Aktion mit Zustimmung von {user} "
        "zurückgenommen (sie bleibt im Prüfprotokoll).",
        "referee_consent": "Schiedsrichter {referee}, Zustimmung von {user}",
        "left": "{user} verlässt {side}.",
        "you_left": "Du hast {side} verlassen; mit /game join nimmst du wieder Platz.",
        "leave_started": "Die Partie läuft schon: einen Platz verlässt man mit /game resign "
        "(oder ein Schiedsrichter mit /ref kick).",
        "cancel_started": "Die Partie läuft schon und kann nicht mehr abgesagt werden. Eine "
        "Seite gibt mit /game resign auf.",
        "cancelled": "🚫 {user} hat diese Partie vor dem Start abgesagt.",
        "rematch_not_yours": "Nur Spieler und Schiedsrichter der Partie können eine Revanche "
        "verlangen.",
        "rematch_not_finished": "Eine Revanche gibt es, sobald diese Partie vorbei ist.",
        "rematch_seats": "Revanche von Partie #{id}, gleiche Plätze: {seats}. Der Ersteller "
        "oder ein Schiedsrichter startet mit /game start.",
        "help_flow": "**Umpire** leitet Kriegsspiele, eine Partie pro Thread. So läuft eine "
        "Partie: /game new ruleset:… eröffnet sie → jeder Spieler wählt eine Seite "
        "mit /game join side:… (/game leave gibt sie ab) → der Ersteller oder ein "
        "Schiedsrichter startet mit /game start (oder sagt mit /game cancel ab) → im "
        "Thread zeigt der Zugbeitrag, wer am Zug ist; gespielt wird mit den Befehlen "
        "des Spiels (Optionen mit Vorschlägen) oder /act, zurückgenommen mit /undo; "
        "/game status, /game log und /game rules erklären mehr, /info unit:… oder "
        "/info cell:… erklärt eine Einheit oder ein Feld → ist die Partie "
        "vorbei, prüft /game verify jeden Wurf und /game rematch spielt sie noch "
        "einmal.",
        "help_no_game": "In diesem Kanal läuft keine Partie: eröffne eine mit /game new, oder "
        "rufe /help im Thread einer Partie auf, um ihre Befehle zu sehen.",
        "help_game": "**{title}** #{id} ({status}). Ihre Befehle:",
        "help_examples": "Du könntest jetzt tippen:",
        "help_questions": "Fragen, die jeder jederzeit stellen darf (die Antwort siehst nur du):",
        "turn_notice": "⏳ {title} #{id}: am Zug: {side}. {link}",
        "notify_on": "Ich schreibe dir eine Direktnachricht, wenn deine Seite in dieser Partie am "
        "Zug ist (/game notify on:False beendet das). Direktnachrichten von diesem "
        "Server müssen erlaubt sein.",
        "notify_off": "Keine Direktnachrichten mehr für diese Partie.",
        "exported": "Die Partie als eine Seite (Bretter: {frames}, Aktionen: {actions}; "
        "öffnet sich offline in jedem Browser) und ihr JSON-Protokoll:",
        "act_more": "+{count} weitere (Name oder Feld tippen zum Eingrenzen)",
        "autocomplete_wait": "Nicht dein Zug: die Partie wartet auf {sides}",
        "flow_turn": "{word} {turn} beginnt",
        "flow_phase": "Phase: {phase}",
        "flow_to_act": "am Zug: {sides}",
        "flow_owed": "Entscheidung von {side} fällig ({what}): {commands}",
        "flow_ended": "{side}: Phase beendet",
        "flow_dice": "die Würfel entscheiden: {dice}",
        "flow_after": "nach {action} geht die Partie nach ihren Regeln weiter",
        "flow_skipped": "für {side} gab es in der Phase {phase} nichts mehr zu tun",
        "flow_decided": "{side}: Entscheidung getroffen",
    },
}

# Command, group and option names shown to German clients (Discord still sends the English
# name to the bot, so nothing else changes). Names must be lowercase, 1-32 characters.
DE_NAMES = {
    "game": "partie",
    "new": "neu",
    "join": "beitreten",
    "start": "starten",
    "status": "status",
    "board": "brett",
    "log": "protokoll",
    "resign": "aufgeben",
    "rules": "regeln",
    "list": "liste",
    "replay": "wiederholung",
    "verify": "pruefen",
    "ref": "schiri",
    "undo": "zuruecknehmen",
    "place": "setzen",
    "remove": "entfernen",
    "phase": "phase",
    "seat": "platzieren",
    "kick": "rauswerfen",
    "pause": "anhalten",
    "clock": "uhr",
    "umpire": "umpire",
    "config": "einstellungen",
    "act": "aktion",
    "flare": "markieren",
    "move": "bewegen",
    "attack": "angreifen",
    "fire": "feuern",
    "end-phase": "phase-beenden",
    "deploy": "aufstellen",
    "rally": "sammeln",
    "retreat": "rueckzug",
    "advance": "vorruecken",
    "play": "ausspielen",
    "discard": "abwerfen",
    "draw": "ziehen",
    "reserve": "reserve",
    "pass": "passen",
    "leave": "verlassen",
    "cancel": "absagen",
    "rematch": "revanche",
    "help": "hilfe",
    "suggested": "vorschlag",
    "export": "exportieren",
    "notify": "benachrichtigen",
    "on": "an",
    # options
    "ruleset": "spiel",
    "scenario": "szenario",
    "scenario_file": "szenario_datei",
    "time_control": "bedenkzeit",
    "on_timeout": "bei_zeitablauf",
    "side": "seite",
    "turn": "zug",
    "count": "anzahl",
    "unit": "einheit",
    "to": "nach",
    "target": "ziel",
    "with": "mit",
    "card": "karte",
    "choice": "wahl",
    "hex": "feld",
    "cell": "feld",
    "info": "info",
    "die": "wuerfel",
    "value": "wert",
    "faction": "fraktion",
    "tile": "plaettchen",
    "action": "aktion",
    "member": "mitglied",
    "paused": "angehalten",
    "hours": "stunden",
    "referee_role": "schiri_rolle",
    "language": "sprache",
}

DE_TEXT = {
    "Start, join and follow wargames": "Kriegsspiele starten, beitreten und verfolgen",
    "Open a new game in a thread of this channel": "Eine neue Partie in einem Thread dieses "
    "Kanals eröffnen",
    "The game to play": "Das Spiel",
    "The scenario (default: the game's standard one)": "Das Szenario (sonst das Standardszenario)",
    "Your own scenario as a JSON file (instead of a name)": "Dein eigenes Szenario als JSON-Datei "
    "(statt eines Namens)",
    "Optional rules, e.g. panic, aiming; no-aiming leaves one out (default: the scenario's)": (
        "Wahlregeln, z. B. panic, aiming; no-aiming lässt eine weg (sonst die des Szenarios)"
    ),
    "Clocks per side": "Bedenkzeit je Seite",
    "What happens when a clock runs out": "Was passiert, wenn eine Uhr abläuft",
    "Take a seat on a side of this thread's game": "Einer Seite der Partie in diesem Thread "
    "beitreten",
    "The side you will play": "Die Seite, die du spielst",
    "Start the game (creator or referee)": "Die Partie starten (Ersteller oder Schiedsrichter)",
    "Where the game stands, your clock and options": "Stand der Partie, deine Uhr und Optionen",
    "Post the board now, or as it stood after a turn": "Das Brett jetzt zeigen oder wie es nach "
    "einem Zug stand",
    "Show the board as it stood after this turn": "Das Brett nach diesem Zug zeigen",
    "Recent actions and events, every die shown": "Letzte Aktionen und Ereignisse mit allen Würfen",
    "How many actions to show (default 10)": "Wie viele Aktionen (Standard 10)",
    "Give up: the other side wins": "Aufgeben: die andere Seite gewinnt",
    "How a game flows and this game's commands": "Wie eine Partie abläuft und die Befehle "
    "dieser Partie",
    "A direct message when it is your turn (on/off)": "Eine Direktnachricht, wenn du am Zug "
    "bist (an/aus)",
    "True: message me when my side is to act; False: stop": "True: schreib mir, wenn meine "
    "Seite am Zug ist; False: aufhören",
    "The whole game as one HTML page and a JSON log": "Die ganze Partie als eine HTML-Seite "
    "und ein JSON-Protokoll",
    "Give up your seat before the game starts": "Deinen Platz vor dem Start aufgeben",
    "Close a game that has not started (creator or referee)": "Eine nicht gestartete Partie "
    "absagen (Ersteller oder Schiedsrichter)",
    "Open the same game again with the same seats": "Dieselbe Partie mit denselben Plätzen "
    "neu eröffnen",
    "A summary of this game's rules": "Eine Zusammenfassung der Regeln",
    "Games in this server": "Partien auf diesem Server",
    "Only games with this status": "Nur Partien mit diesem Status",
    "An animated picture of the game so far": "Ein animiertes Bild der bisherigen Partie",
    "Replay the log with the revealed seed and check every die": "Das Protokoll mit dem "
    "veröffentlichten Seed nachspielen und jeden Wurf prüfen",
    "Server settings for Umpire": "Server-Einstellungen für Umpire",
    "Set the referee role and the language of public posts": "Schiedsrichter-Rolle und "
    "Sprache öffentlicher Beiträge festlegen",
    "Members of this role may referee every game": "Mitglieder dieser Rolle leiten jede Partie",
    "Language of public posts in game threads": "Sprache öffentlicher Beiträge in Partie-Threads",
    "Referee tools for the game in this thread": "Schiedsrichter-Werkzeuge für diese Partie",
    "Take back the last action (it stays in the audit log)": "Die letzte Aktion zurücknehmen "
    "(sie bleibt im Prüfprotokoll)",
    "Put a unit on a cell": "Eine Einheit auf ein Feld setzen",
    "Unit id": "Einheiten-Kennung",
    "Cell label, e.g. 0507": "Feld, z. B. 0507",
    "Take a unit off the board": "Eine Einheit vom Brett nehmen",
    "Set the phase (and optionally the active side)": "Die Phase (und wahlweise die Seite am "
    "Zug) setzen",
    "Phase name": "Name der Phase",
    "The side whose turn it becomes": "Die Seite, die an den Zug kommt",
    "Seat a member on a side": "Ein Mitglied auf eine Seite setzen",
    "Who": "Wer",
    "Which side": "Welche Seite",
    "Remove a member from every seat of this game": "Ein Mitglied aus der Partie nehmen",
    "Pause (clocks stop, no moves) or resume the game": "Partie anhalten (Uhren stehen, keine "
    "Züge) oder fortsetzen",
    "True to pause, False to resume": "True zum Anhalten, False zum Fortsetzen",
    "Set a side's remaining time in hours": "Die Restzeit einer Seite in Stunden setzen",
    "Time left, in hours": "Restzeit in Stunden",
    "Take any legal action (pick from the list)": "Eine beliebige erlaubte Aktion ausführen "
    "(aus der Liste wählen)",
    "The action, e.g. /move unit:sp-cavalry-1 to:0507": "Die Aktion, z. B. /move "
    "unit:sp-cavalry-1 to:0507",
    "Take back your last action (same phase, before any die or secret)": "Deine letzte Aktion "
    "zurücknehmen (gleiche Phase, vor Würfeln oder Geheimnissen)",
    "Mark a hex on the next picture": "Ein Feld auf dem nächsten Bild markieren",
    "The cell to mark, e.g. 0507 or C4": "Das Feld, z. B. 0507 oder C4",
    "Move a unit": "Eine Einheit bewegen",
    "Place your remaining units as the scenario suggests": "Deine übrigen Einheiten so "
    "aufstellen, wie es das Szenario vorschlägt",
    "Place your remaining units legally at random": "Deine übrigen Einheiten zufällig und "
    "regelgerecht aufstellen",
    "Attack an enemy unit": "Eine feindliche Einheit angreifen",
    "Fire at an enemy unit": "Auf eine feindliche Einheit feuern",
    "End the current phase": "Die aktuelle Phase beenden",
    "Deploy a unit": "Eine Einheit aufstellen",
    "Rally a unit": "Eine Einheit sammeln",
    "Retreat a unit": "Eine Einheit zurückziehen",
    "Advance after combat": "Nach dem Kampf vorrücken",
    "Place a tile or piece": "Ein Plättchen oder eine Figur setzen",
    "Play a card": "Eine Karte ausspielen",
    "Discard a card": "Eine Karte abwerfen",
    "Draw a card": "Eine Karte ziehen",
    "Put a unit into reserve": "Eine Einheit in die Reserve stellen",
    "Pass": "Passen",
    "Your unit": "Deine Einheit",
    "Destination": "Ziel",
    "Destination hex": "Zielfeld",
    "Enemy unit": "Feindliche Einheit",
    "The enemy unit": "Die feindliche Einheit",
    "Your attacking unit": "Deine angreifende Einheit",
    "Your firing unit": "Deine feuernde Einheit",
    "A second unit joining the attack": "Eine zweite Einheit greift mit an",
    "The unit to deploy": "Die aufzustellende Einheit",
    "Where it enters": "Wo sie ins Spiel kommt",
    "The unit to rally": "Die zu sammelnde Einheit",
    "The retreating unit": "Die zurückweichende Einheit",
    "Where it retreats to": "Wohin sie zurückweicht",
    "The advancing unit": "Die vorrückende Einheit",
    "Where it advances to": "Wohin sie vorrückt",
    "What to place": "Was gesetzt wird",
    "Where to place it": "Wohin",
    "The card": "Die Karte",
    "Your choice": "Deine Wahl",
    "Its target": "Ihr Ziel",
    "The unit": "Die Einheit",
    "live (no clock)": "live (ohne Uhr)",
    "daily (24h + 24h, max 72h)": "täglich (24 h + 24 h, max. 72 h)",
    "slow (72h + 12h, max 120h)": "langsam (72 h + 12 h, max. 120 h)",
    "referee decides": "Schiedsrichter entscheidet",
    "forfeit": "Partie verloren",
    "lobby": "wartet",
    "active": "läuft",
    "finished": "beendet",
    "Move a unit one hex": "Eine Einheit ein Feld bewegen",
    "A unit on the board": "Eine Einheit auf dem Brett",
    "A cell, e.g. 0507 or C4": "Ein Feld, z. B. 0507 oder C4",
    "Fire at an adjacent enemy": "Auf einen benachbarten Feind feuern",
}

# Refusals every ruleset raises (keys of RuleError, see engine.core.errors). English is the
# error's own message; a ruleset's refusals of its own live in its ``translations``.
RULE_MESSAGES: dict[str, dict[str, str]] = {
    "de": {
        "game_over": "Die Partie ist vorbei.",
        "unknown_side": "Es gibt keine Seite {side!r}.",
        "not_your_turn": "Nicht am Zug: {side}; die Partie wartet auf {waiting}.",
        "not_your_decision": "Für {side} gibt es jetzt nichts zu entscheiden; die Partie "
        "wartet auf {waiting}.",
        "not_possible_now": "/{command} ist jetzt nicht möglich.",
        "not_legal_now": "Dieses /{command} ist jetzt nicht erlaubt.",
        "not_legal_value": "/{command} geht jetzt nicht mit {option}:{value}; möglich: {possible}.",
        # the command grammar (engine/core/commands.py)
        "syntax_too_long": "Dieser Befehl ist {length} Zeichen lang; ein Befehl hat höchstens "
        "{most}.",
        "syntax_no_slash": "Ein Befehl beginnt mit '/', z. B. /move unit:… to:…; getippt: {typed}.",
        "syntax_unreadable": "{typed} kann ich nicht lesen (ein Anführungszeichen fehlt?).",
        "syntax_empty": "Leerer Befehl.",
        "syntax_name_first": "Zuerst kommt der Name des Befehls, z. B. /move; getippt: {typed}.",
        "syntax_not_option": "Optionen schreibt man name:wert, z. B. /{command} unit:… to:…; "
        "{typed} ist keine.",
        "syntax_no_value": "Die Option {option} hat keinen Wert.",
        "syntax_twice": "Die Option {option} kommt doppelt vor oder ist reserviert.",
        "no_unit": "Es gibt keine Einheit {unit!r}.",
        "no_unit_on_map": "Es gibt keine Einheit {unit!r} auf dem Brett.",
        "not_a_cell": "{cell!r} ist kein Feld dieses Bretts.",
        "no_option": "/{command} hat keine Option {option}.",
        "legal": "Erlaubt: {items}{more}.",
        "legal_more": " (+{count} weitere)",
        "info_no_unit": INFO_WORDS["de"]["no_unit"],
        "info_no_cell": INFO_WORDS["de"]["no_cell"],
        "info_need_one": INFO_WORDS["de"]["need_one"],
        "info_one_at_a_time": INFO_WORDS["de"]["one_at_a_time"],
        # other games (engine/core/game.py): missing options, /auto-setup, /suggested
        "missing_option": "/{command} braucht {option}:…",
        "takes_no_options": "/{command} hat keine Optionen; angegeben: {options}.",
        "auto_setup_nothing": "Für {side} gibt es jetzt nichts aufzustellen (Phase {phase}): "
        "/auto-setup stellt die Einheiten (oder Kartenplättchen) einer Seite vor dem Spiel auf.",
        "suggested_nothing_left": "Für {side} bleibt nichts mehr so aufzustellen, wie das "
        "Szenario vorschlägt.",
    },
}


TYPED_PARAMS = frozenset({"command", "option", "value", "typed"})


def _term(ruleset, value: str, lang: str) -> str:
    return ruleset.term(value, lang) if ruleset is not None else value


def rule_text(error, lang: str) -> str:
    """A rules refusal in ``lang``: its template filled with its params (side and phase names
    in that language), then what is legal instead. English, or a refusal without a template in
    ``lang``, is the error's own text."""
    key = getattr(error, "key", None)
    if lang == "en" or not key:
        return str(error)
    ruleset = None
    domain = getattr(error, "domain", None)
    if domain:
        from engine.registry import get_ruleset

        try:
            ruleset = get_ruleset(domain)
        except Exception:  # an unknown domain only costs the translation
            log.warning("refusal from unknown ruleset %r", domain)
    own = ruleset.translations.get(lang, {}) if ruleset is not None else {}
    template = own.get(key) or RULE_MESSAGES.get(lang, {}).get(key)
    if template is None:
        return str(error)
    params = {}
    for name, value in error.params.items():
        if name in TYPED_PARAMS:
            # what the player typed (a command, an option, a value) stays as typed: /deploy
            # must not become "/Aufstellung" because a phase has the same name
            params[name] = str(value)
            continue
        if isinstance(value, (list, tuple)):
            value = ", ".join(_term(ruleset, str(v), lang) for v in value) or "—"
        elif name == "command":  # what the player types stays as they type it
            value = str(value)
        else:
            value = _term(ruleset, str(value), lang)
        params[name] = value
    try:
        text = template.format(**params)
    except (KeyError, IndexError, ValueError):
        log.exception("bad parameters for refusal %r", key)
        return str(error)
    shown = list(getattr(error, "legal_in", {}).get(lang) or error.legal)
    if not shown:
        return text
    more = getattr(error, "more", None)
    if more is None:  # the localised hints are only those shown; the English list is whole
        more = max(0, len(error.legal) - HINTS_SHOWN)
        shown = shown[:HINTS_SHOWN]
    catalog = RULE_MESSAGES[lang]
    tail = catalog["legal_more"].format(count=more) if more else ""
    return text + " " + catalog["legal"].format(items=", ".join(shown), more=tail)


NAME_LOCATIONS = (Where.command_name, Where.group_name, Where.parameter_name)


def normalise_locale(locale) -> str:
    text = str(getattr(locale, "value", locale) or "")
    return "de" if text.lower().startswith("de") else "en"


def locale_of(interaction: discord.Interaction) -> str:
    return normalise_locale(interaction.locale)


# "{side}'s" with a side whose name ends in s ("Allies", "Defenders") reads "Allies'".
_POSSESSIVE = re.compile(r"\b(\w*s)'s\b")


def t(lang: str, key: str, **params) -> str:
    catalog = MESSAGES.get(lang) or MESSAGES["en"]
    template = catalog.get(key) or MESSAGES["en"].get(key)
    if template is None:
        log.error("missing message %r", key)
        return key
    try:
        return _POSSESSIVE.sub(r"\1'", template.format(**params))
    except (KeyError, IndexError, ValueError):
        log.exception("bad parameters for message %r", key)
        return template


class UmpireTranslator(app_commands.Translator):
    """German names and descriptions for the command tree (Discord shows them to clients set
    to German; the English names stay what the bot receives)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.german:
            return None
        given = string.extras.get("i18n") or {}
        if "de" in given:
            return given["de"]
        if context.location in NAME_LOCATIONS:
            return DE_NAMES.get(string.message)
        return DE_TEXT.get(string.message)
