"""The local table in German (`--lang de`, issue 15): a German newcomer reads the table's own
messages, the game's narration, refusals, announcements and help in German. Game data (unit
names, card titles, terrain names) may stay as the game wrote it."""

from __future__ import annotations

import io
import json

from engine.tenochtitlan.data import cards_by_id
from service import table
from tests.discord.test_german_replies import english_sentences


def hot_seat_german(tmp_path, lines: list[str], game: str = "tenochtitlan") -> str:
    typed = iter([*lines, "/quit"])
    out = io.StringIO()
    code = table.main(
        ["--game", game, "--seed", "7", "--lang", "de", "--db", str(tmp_path / f"{game}.db")],
        stdout=out,
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    assert code == 0
    return out.getvalue()


def test_a_german_newcomers_first_turns_on_the_table_read_german(tmp_path):
    text = hot_seat_german(
        tmp_path,
        [
            "/help",
            "/auto-setup",
            "/auto-setup",
            '/move unit:"Cav 1" to:1212',  # too far
            "/move unit:cav to:1212",  # two cavalry units
            "/options aztec",  # not their turn
            "/end-phase",
            "/end-phase",
            "/log 3",
            "/info unit:Cav 1",
        ],
    )
    for card in cards_by_id().values():
        text = text.replace(card["title"], "«card»")
    assert "Befehle (dieselbe Schreibweise wie in Discord)" in text
    assert "Jetzt: Spielzug 1, Kampf, am Zug: Spanier (Spanier: Phase beendet)." in text
    assert "Feindliche Einheiten versperren Spanish Cavalry 1 jeden Weg nach 1212" in text
    assert "unit:cav passt auf mehreres" in text and "Spanish Cavalry 1 auf " in text
    assert "Nicht am Zug: Azteken; die Partie wartet auf Spanier." in text
    assert "Karte: «card»" in text and "(gespielt für Spanier)" in text
    assert "Tisch verlassen. Die Partie ist als #1 in" in text
    assert not english_sentences(text), english_sentences(text)


def test_options_and_log_read_german(tmp_path):
    code, out = 0, io.StringIO()
    script = tmp_path / "s.txt"
    script.write_text("/deploy unit:panzerfaust to:C1\n/end-phase\n/end-phase\n/options\n/log 3\n")
    code = table.main(
        ["--game", "rivet-wars", "--seed", "7", "--lang", "de", "--db", str(tmp_path / "r.db")]
        + ["--script", str(script)],
        stdout=out,
        stderr=io.StringIO(),
    )
    assert code == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    labels = [o["label"] for o in lines[3]["options"]]
    assert any(" LP)" in label for label in labels), labels  # Lebenspunkte, not "hp"
    log = "\n".join(lines[4]["log"])
    assert "#2 Zug 1 Bismark: /end-phase" in log, log
    assert "Bismark verliert 3 nicht ausgegebene Aufstellungspunkte." in log, log


def test_english_stays_the_default(tmp_path):
    out = io.StringIO()
    typed = iter(["/end-phase", "/quit"])
    table.main(
        ["--game", "tenochtitlan", "--scenario", "historical", "--seed", "7"]
        + ["--db", str(tmp_path / "e.db")],
        stdout=out,
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    assert "Now: Turn 1, Combat, Spanish to act (Spanish ended the phase)." in out.getvalue()


def test_typing_mistakes_are_explained_in_german(tmp_path):
    """A newcomer's first lines are often mistyped: the grammar's and the table's own
    complaints were English even with --lang de."""
    text = hot_seat_german(tmp_path, ["/move unit", "/move unit:", "move", '/move unit:"a'])
    assert "✗ Optionen schreibt man name:wert, z. B. /move unit:… to:…; 'unit' ist keine." in text
    assert "✗ Die Option unit hat keinen Wert." in text
    assert "✗ Beginne mit einem Befehl (/move ...) oder einer Seite und einem Befehl" in text
    assert "kann ich nicht lesen (ein Anführungszeichen fehlt?)" in text
    assert not english_sentences(text), english_sentences(text)


def test_questions_on_the_german_table_are_answered_in_german(tmp_path):
    """/info and /los on `--lang de` answered in English ("Terrain: Lake Texcoco / Water:
    only boats enter.", "No shot from 1012 to 1517: range 7, cover none.")."""
    text = hot_seat_german(tmp_path, ["/info cell:0505"])
    assert "Terrain: Lake" not in text and "only boats enter" not in text, text
    assert not english_sentences(text), english_sentences(text)
    text = hot_seat_german(tmp_path, ["/los from:1012 to:1517"], game="siege")
    assert "Kein Schuss von 1012 nach 1517: Entfernung 7" in text, text
    assert "No shot" not in text, text


def test_a_side_is_named_as_the_prompt_shows_it(tmp_path):
    """The prompt says "am Zug: Belagerer"; "Belagerer /options" (or "Besiegers", any case)
    was refused: "Beginne mit einem Befehl ... Getippt: 'Belagerer'"."""
    text = hot_seat_german(
        tmp_path,
        ["Belagerer /options", "besiegers /options", "VERTEIDIGER /options", "Nobody /options"],
        game="siege",
    )
    assert "Getippt: 'Belagerer'" not in text and "Getippt: 'besiegers'" not in text, text
    assert "Getippt: 'VERTEIDIGER'" not in text, text
    assert text.count("erlaubte Aktion(en) für Belagerer") == 2, text
    assert "Getippt: 'Nobody'" in text, text
