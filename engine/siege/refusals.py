"""SIEGE's own refusals in the players' languages: the key each English refusal carries
(``siege.<name>``) and its German template. The riders' refusals (3.3) keep theirs in
:mod:`engine.siege.riders`; :class:`engine.siege.rules.Siege` merges both."""

from __future__ import annotations

from engine.core.errors import Reason


def say(key: str, text: str, **params) -> Reason:
    """A refusal in English that carries its key for the player's language (TRANSLATIONS)."""
    return Reason(text, key=f"siege.{key}", domain="siege", **params)


def figure_named(state: dict, typed) -> str | None:
    """The id of the figure a player typed by id or by name (any case), or None."""
    typed = str(typed or "")[:40]
    if typed in state["figures"]:
        return typed
    return next(
        (
            k
            for k, f in sorted(state["figures"].items())
            if f["name"].casefold() == typed.casefold()
        ),
        None,
    )


# German uses the rulebook's words (siege-cry-havoc.de.txt): Belagerer, Verteidiger, Ritter,
# Armbrustschütze, Leiter, Belagerungsturm, Widder, Onager, Katapult, Balliste, Brustwehr ...
TRANSLATIONS = {
    "de": {
        # Shooting (1.2, 1.21)
        "siege.fought_last_round": "{name} hat in der letzten Runde im Nahkampf gekämpft und "
        "schießt in diesem ersten Feuerschritt nicht (1.21).",
        "siege.crossbow_shot": "{name} hat gerade mit der Armbrust geschossen und bewegt sich in "
        "diesem Bewegungsschritt nicht (1.21).",
        "siege.beyond_range": "{name} kann nicht auf {target} schießen: Entfernung {distance} "
        "liegt jenseits der großen Reichweite ({long}).",
        "siege.already_done": "{name} war in diesem Schritt schon an der Reihe (1.21).",
        # Before the assault (2.2, 2.31)
        "siege.no_fill_left": "Es ist kein Spielstein „gefüllter Graben“ mehr zu legen "
        "(2.2, 2.31: das Szenario gibt ihre Zahl an).",
        "siege.no_breach_left": "Es ist kein Spielstein „zerstörte Mauer“ mehr zu legen "
        "(2.2, 2.31: das Szenario gibt ihre Zahl an).",
        "siege.fill_where": "{at} ist kein Feld des Burggrabens: Spielsteine „gefüllter Graben“ "
        "kommen in den Burggraben, nie unter die Zugbrücke (2.2).",
        "siege.breach_where": "{at} ist kein Mauer- oder Brustwehrfeld: Spielsteine „zerstörte "
        "Mauer“ kommen auf die Mauern der Burg (2.31).",
        # Fire (3.51, 3.53)
        "siege.kindle_parapet": "{name} steht auf einer Brustwehr und setzt so nichts in "
        "Brand; von dort tun es Brandpfeile oder kochendes Öl (3.51: „Eine Figur auf einem "
        "Brustwehrfeld kann auf diese Weise eine angrenzende Belagerungsmaschine nicht in Brand "
        "setzen“).",
        "siege.kindle_where": "{name} setzt nur eine feindliche Kriegsmaschine, einen "
        "Belagerungsturm oder ein Zelt neben sich in Brand, die noch nicht brennen, und bleibt "
        "dazu eine ganze Runde daneben (3.51): nicht {at}.",
        "siege.douse_where": "{name} löscht nur ein Feuer in einem Feld neben sich, im "
        "Nahkampfschritt (3.53): {at} ist keines.",
        # Carrying pots and the siege shield (5.21, 5.22, F8, F11)
        "siege.lay_no_shield": "{name} trägt keinen Schirm, den er aufstellen könnte (5.22).",
        "siege.lay_where": "{faces} liegt nicht neben dem Feld {at} von {name}: der Schirm wird "
        "entlang einer Kante des Feldes seines Trägers aufgestellt (5.22).",
        "siege.lift_full_hands": "{name} trägt schon {item}: eine Figur trägt nur eines (F8, F11).",
        "siege.lift_carried": "{item} wird von {other} getragen.",
        "siege.lift_shield_where": "{name} nimmt Schirm {item} nur auf seinem Feld {cell} auf "
        "(5.21: „wenn sie sich auf dem gleichen Feld befindet“).",
        "siege.lift_pot_where": "{name} nimmt Ölfass {item} nur auf seinem Feld {cell} oder "
        "daneben auf (F8).",
        "siege.lift_unknown": "Es gibt kein Ölfass und keinen Schirm {item!r}; es gibt: {known}.",
        # Boiling oil (5.32: „Verteidiger, die sich auf Brustwehrfeldern befinden“)
        "siege.pour_defenders": "Nur Verteidiger auf einer Brustwehr gießen kochendes Öl (5.32).",
        "siege.pour_no_pot": "{name} trägt kein Ölfass: zuerst im Bewegungsschritt eines mit "
        "/lift aufnehmen (5.32).",
        "siege.pour_parapet": "{name} gießt Öl nur von einer Brustwehr aus (5.32).",
        "siege.pour_shot": "{name} hat in dieser Phase geschossen und gießt kein Öl (5.32).",
        "siege.pour_where": "Kein Öl auf {at}: es kommt auf ein angrenzendes tieferes Feld mit "
        "einer feindlichen Figur oder auf eine feindliche Kriegsmaschine oder einen "
        "Belagerungsturm, die noch nicht brennen (5.32, F9).",
        # Siege towers (2.41)
        "siege.not_your_tower": "{tower} ist keiner deiner Belagerungstürme.",
        "siege.tower_pushed": "Belagerungsturm {tower} wurde in dieser Runde schon geschoben "
        "(2.41).",
        "siege.tower_crew_fought": "Belagerungsturm {tower} kann in dieser Runde nicht bewegt "
        "werden (2.41: „Wenn eine der Figuren, die den Belagerungsturm bedient, in einen Kampf "
        "verwickelt wurde, kann der Belagerungsturm nächste Runde nicht bewegt werden“).",
        "siege.tower_crew": "Belagerungsturm {tower} braucht {crew} handlungsfähige Figuren "
        "seiner Seite in seinem Inneren, die in dieser Runde noch nicht gehandelt haben (2.41); "
        "jetzt: {team}.",
        "siege.tower_straight": "Belagerungsturm {tower} rollt nur gerade vor oder zurück, "
        "innerhalb der Punkte der Runde, über ebenes Gelände oder gefüllten Graben, nie auf "
        "eine Figur, eine Leiter, eine Kriegsmaschine oder einen anderen Belagerungsturm (2.41).",
        # Ladders (1.91)
        "siege.ladder_raised": "Leiter {ladder} lehnt schon an {faces}.",
        "siege.ladder_lying": "Leiter {ladder} liegt am Boden: zuerst heben zwei Figuren neben "
        "ihr sie mit /carry auf (1.91).",
        "siege.ladder_where": "Leiter {ladder} kann nicht von {at} aus an {faces} angelehnt "
        "werden: eine Leiter wird auf einem freien Feld außen am Fuß einer Brustwehr "
        "aufgestellt, neben einem Feld neben ihren Trägern, und lehnt an dieser Brustwehr, nie "
        "an einem Turm (1.91).",
        # Melee (1.7: „Wenn sich zwei Figuren oder mehr in angrenzenden Feldern befinden,
        # können sie gegeneinander kämpfen.“)
        "siege.not_adjacent": "{name} steht nicht neben {target}: Figuren kämpfen nur aus "
        "angrenzenden Feldern gegeneinander (1.7).",
        # A shot's line blocked (1.41, 1.42, 1.45)
        "siege.shot_over_terrain": "{name} kann nicht auf {target} schießen: {cell}: {what} "
        "(Höhe {height}) ist höher als beide Enden: blockiert (1.41).",
        "siege.shot_over_figure": "{name} kann nicht auf {target} schießen: {cell}: die Figur "
        "{who} (Höhe {height}) ist höher als beide Enden: blockiert (1.41).",
        "siege.shot_hidden_terrain": "{name} kann nicht auf {target} schießen: {cell}: {what} "
        "(Höhe {height}) verdeckt {low_end}: es steht {near_low} davon entfernt, näher als "
        "{high_end} ({near_high}) (1.45).",
        "siege.shot_hidden_figure": "{name} kann nicht auf {target} schießen: {cell}: die Figur "
        "{who} (Höhe {height}) verdeckt {low_end}: sie steht {near_low} davon entfernt, näher "
        "als {high_end} ({near_high}) (1.45).",
        "siege.shot_over_figure_short": "{name} kann nicht auf {target} schießen: {cell}: die "
        "Figur {who} (Höhe {height}) ist höher als beide Enden: blockiert (1.41; auf kurze "
        "Entfernung schießt man nicht über Figuren hinweg, 1.42).",
        "siege.shot_hidden_figure_short": "{name} kann nicht auf {target} schießen: {cell}: die "
        "Figur {who} (Höhe {height}) verdeckt {low_end}: sie steht {near_low} davon entfernt, "
        "näher als {high_end} ({near_high}) (1.45; auf kurze Entfernung schießt man nicht über "
        "Figuren hinweg, 1.42).",
        # Engines (3.4, 4.2, 4.3)
        "siege.not_your_engine": "{engine} gehört nicht zu deinen Kriegsmaschinen der Art "
        "{wanted}.",
        "siege.engines_prepare_only": "Kriegsmaschinen werden nur vor dem Sturm des Tages, im "
        "Vorbereitungsschritt, aufgestellt, auf eine Mauer gerichtet und abgefeuert "
        "(3.43, 4.11).",
        "siege.not_aimed": "Heute ist keine Kriegsmaschine auf {at} gerichtet: zuerst /aim "
        "engine: at:{at} (4.21).",
        "siege.engine_fixed": "{engine} steht fest, sobald die Kriegsmaschine auf dem Plan steht (3.43); "
        "Kriegsmaschinen werden nur vor dem Sturm eines neuen Tages neu aufgestellt.",
        "siege.emplace_where": "{at} ist kein freies Feld auf {ground}: dort darf keine Figur, "
        "keine Leiter, kein Belagerungsturm und keine andere Kriegsmaschine stehen.",
        "siege.engine_blocks": "Keine Figur darf {to} betreten: dort steht die Kriegsmaschine {engine} "
        "({what}; {rule}).",
        "siege.enemy_ram": "{to} liegt unter dem feindlichen Widder {engine}: nur seine eigene "
        "Seite geht darunter (4.31).",
        "siege.ballista_step": "Eine Balliste schießt nur im Schritt der Armbrüste (3.41).",
        "siege.ballista_crew": "Balliste {engine} fehlt ihre Mannschaft: sie braucht {crew} "
        "handlungsfähige Figuren ihrer Seite neben sich, eine davon ein {crew_type} (3.41); "
        "jetzt daneben: {beside}.",
        "siege.ballista_markers": "Balliste {engine} schießt jede dritte Runde (3.41): sie hat "
        "{markers}/{needed} Rundenmarker und schießt nach {left} weiteren Runde(n) mit ihrer "
        "Mannschaft daneben.",
        "siege.no_enemy_figure": "{target} ist keine lebende feindliche Figur.",
        "siege.ballista_no_sight": "Balliste {engine} kann nicht auf {target} schießen: "
        "{distance} Felder, jenseits ihrer großen Reichweite von {long}.",
        "siege.ram_drive_step": "Ein Widder wird im Bewegungsschritt seiner Seite geschoben "
        "(4.31).",
        "siege.ram_batter_step": "Ein Widder wird im Nahkampfschritt seiner Seite gegen eine "
        "Mauer eingesetzt (4.32).",
        "siege.ram_every_second": "Widder {engine} hat in Runde {last} gestoßen: ein Wurf jede "
        "zweite Runde, der nächste in Runde {next} (4.32).",
        "siege.ram_no_wall": "Die Front von Widder {engine} zeigt auf {front}: keine Mauer, kein "
        "Turm und keine Tormauer der Burgfront (4.32).",
        "siege.ram_keep": "Die Front von Widder {engine} zeigt auf {front}: den Burgfried, den "
        "ein Widder nicht rammen darf (4.32).",
        "siege.ram_crew": "Widder {engine} braucht {crew} handlungsfähige Figuren seiner Seite "
        "unter sich (4.31, 4.34); jetzt: {team}.",
        "siege.ram_crew_fresh": "Widder {engine} braucht {crew} handlungsfähige Figuren seiner "
        "Seite unter sich, die in dieser Runde noch nicht gehandelt haben (4.31, 4.34); jetzt: "
        "{team}.",
        "siege.ram_pushed": "Widder {engine} wurde in dieser Runde schon geschoben (4.31, wie "
        "der Belagerungsturm).",
        "siege.ram_crew_fought": "Widder {engine} kann sich in dieser Runde nicht bewegen: einer "
        "seiner Mannschaft hat in der letzten Runde gekämpft (4.31, 2.41).",
        "siege.ram_straight": "Widder {engine} rollt nur gerade vor oder zurück, um ganze Felder "
        "innerhalb der Bewegung seiner Mannschaft, nie auf eine lebende Figur, eine Leiter, "
        "einen Belagerungsturm oder eine Kriegsmaschine (4.31, 2.41).",
        "siege.ram_rests_melee": "Widder {engine} ruht in dieser Runde: einer seiner Mannschaft "
        "hat in dieser Runde gekämpft (4.34).",
        "siege.ram_rests_fire": "Widder {engine} ruht in dieser Runde: einer seiner Mannschaft "
        "hat in dieser Runde ein Feuer bekämpft (4.34).",
        "siege.already_aimed": "{engine} ist heute schon auf {at} gerichtet: ein Mauerfeld je "
        "Kriegsmaschine und Tag (4.21).",
        "siege.no_points": "{engine} hat heute keine Zerstörungspunkte: die Kriegsmaschine wird "
        "repariert oder ist zerstört (4.23).",
        "siege.not_wall": "{at} ist kein Mauer-, Turm- oder Burgfriedfeld der Burgfront (4.21).",
        "siege.already_breached": "Die Mauer bei {at} ist schon zerstört (4.14).",
        "siege.bombarded_today": "{at} wurde heute schon beschossen: die auf ein Feld "
        "gerichteten Kriegsmaschinen würfeln einmal, und aus der Ferne verliert eine Mauer "
        "höchstens eine Stufe am Tag (4.13, 4.21).",
        "siege.keep_blocked": "Die Burgfriedmauer bei {at} bricht erst, wenn ein benachbartes "
        "Burgfriedfeld beschädigt ist (4.21).",
        # Words filled into the sentences above.
        "ballista": "Balliste",
        "ram": "Widder",
        "catapult": "Katapult",
        "onager": "Onager",
        "ballista or catapult or onager": "Balliste, Katapult oder Onager",
        "catapult or onager": "Katapult oder Onager",
        "open": "offenes Gelände",
        "That": "Das",
        "nobody": "niemand",
        "sergeant": "Sergeant",
        # Cells' titles named as obstacles in a shot's line.
        "open ground": "offenes Gelände",
        "courtyard": "Burghof",
        "gateway": "Tordurchgang",
        "drawbridge": "Zugbrücke",
        "inside of a tower": "Turminneres",
        "inside of the keep": "Inneres des Burgfrieds",
        "arrow slit (tower)": "Schießscharte (Turm)",
        "arrow slit (keep)": "Schießscharte (Burgfried)",
        "winch (gate tower)": "Winde (Torturm)",
        "thicket": "Dickicht",
        "slope": "Hang",
        "top of the hill": "Hügelkuppe",
        "knight": "Ritter",
    }
}
