"""SIEGE's own refusals in the players' languages: the key each English refusal carries
(``siege.<name>``) and its German template. The riders' refusals (3.3) keep theirs in
:mod:`engine.siege.riders`; :class:`engine.siege.rules.Siege` merges both."""

from __future__ import annotations

from engine.core.errors import Reason


def say(key: str, text: str, **params) -> Reason:
    """A refusal in English that carries its key for the player's language (TRANSLATIONS)."""
    return Reason(text, key=f"siege.{key}", domain="siege", **params)


def german_word(text: str, words: dict) -> str:
    """A word of a refusal in German: the game's word for it, or a riderless horse standing in
    a line of sight ("horse konrads-horse", riders.in_the_line) as "Pferd konrads-horse"."""
    if text in words:
        return words[text]
    if text.startswith("horse "):
        return "Pferd " + text[len("horse ") :]
    return text


def worded(reason, lang: str) -> str:
    """A keyed reason (``say``) in ``lang``: its template filled with its params, each a word
    in that language when the game knows it; a reason given as a param (a cell that blocks a
    grazing line) is worded the same way. A reason without a template stays as it is.

    Sight reasons are worded here, by the rules, because they nest; the Discord layer fills
    one level of params only (``cogs.i18n.rule_text``)."""
    keyed = getattr(reason, "keyed", None)
    if lang == "en" or not keyed:
        return str(reason)
    from . import riders  # riders keeps its own refusals' templates beside ours

    templates = {**riders.TRANSLATIONS.get(lang, {}), **TRANSLATIONS.get(lang, {})}
    key = keyed["key"]
    # A blocking wall or figure inside another sentence: the bare form, without the
    # "X cannot shoot at Y" its refusal starts with.
    template = templates.get(key.replace("siege.shot_", "siege.sight_", 1)) or templates.get(key)
    if template is None:
        return str(reason)

    def one(value) -> str:
        if getattr(value, "keyed", None):
            return worded(value, lang)
        return (
            german_word(str(value), templates)
            if lang == "de"
            else templates.get(str(value), str(value))
        )

    params = {
        name: ", ".join(one(v) for v in value) or "—"
        if isinstance(value, (list, tuple))
        else one(value)
        for name, value in keyed["params"].items()
    }
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return str(reason)


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
        # A shot refused by its sight line: the line's last reason, worded by the rules.
        "siege.cannot_shoot": "{name} kann nicht auf {target} schießen: {why_de}.",
        "siege.ballista_blocked": "Balliste {engine} kann nicht auf {target} schießen: {why_de}.",
        # Sight and cover, cell by cell (1.4, 1.5, 2.4, 3.2, 4.33, 5.11, 5.22): the reasons of
        # /los and of a refused shot.
        "siege.sight_over_terrain": "{cell}: {what} (Höhe {height}) ist höher als beide Enden: "
        "blockiert (1.41)",
        "siege.sight_over_figure": "{cell}: die Figur {who} (Höhe {height}) ist höher als beide "
        "Enden: blockiert (1.41)",
        "siege.sight_hidden_terrain": "{cell}: {what} (Höhe {height}) verdeckt {low_end}: es "
        "steht {near_low} davon entfernt, näher als {high_end} ({near_high}) (1.45)",
        "siege.sight_hidden_figure": "{cell}: die Figur {who} (Höhe {height}) verdeckt "
        "{low_end}: sie steht {near_low} davon entfernt, näher als {high_end} ({near_high}) "
        "(1.45)",
        "siege.sight_over_figure_short": "{cell}: die Figur {who} (Höhe {height}) ist höher als "
        "beide Enden: blockiert (1.41; auf kurze Entfernung schießt man nicht über Figuren "
        "hinweg, 1.42)",
        "siege.sight_hidden_figure_short": "{cell}: die Figur {who} (Höhe {height}) verdeckt "
        "{low_end}: sie steht {near_low} davon entfernt, näher als {high_end} ({near_high}) "
        "(1.45; auf kurze Entfernung schießt man nicht über Figuren hinweg, 1.42)",
        "siege.sight_ladder_only": "{cell}: von einer Leiter schießt man nur auf die Brustwehr, "
        "an der sie lehnt ({faced}) (1.93)",
        "siege.sight_ladder_parapet": "{cell}: von einer Leiter schießt man nur auf die "
        "Brustwehr, an der sie lehnt ({faced}): schwere Deckung (1.93)",
        "siege.sight_inside_tower_shooter": "{cell}: Figuren im Inneren eines Belagerungsturms "
        "schießen nicht (2.44)",
        "siege.sight_inside_tower_target": "{cell}: im Inneren eines Belagerungsturms: volle "
        "Deckung, kein Schuss (2.44)",
        "siege.sight_tower_top": "{cell}: oben auf einem Belagerungsturm: {cover} (2.44)",
        "siege.sight_on_ladder": "{cell}: auf einer Leiter: keine Deckung (1.93)",
        "siege.sight_same_cell": "Schütze und Ziel stehen im selben Feld",
        "siege.sight_ends": "{a}: {a_what}, Höhe {a_level}; {b}: {b_what}, Höhe {b_level}",
        "siege.sight_from_keep_door": "{cell}: aus dem Eingang des Burgfrieds schießt niemand "
        "(1.43)",
        "siege.sight_keep_door": "{cell}: der Eingang des Burgfrieds gibt volle Deckung; kein "
        "Schuss (1.54)",
        "siege.sight_into_moat": "{cell}: von außen schießt man nur aus dem Burggraben oder von "
        "seinem Rand in den Burggraben (1.46)",
        "siege.sight_from_moat": "{cell}: aus dem Burggraben schießt man nur in den Burggraben "
        "und auf seinen äußeren Rand (1.46)",
        "siege.sight_moat_from_inside": "{cell}: in der Burg sehen nur Brustwehren und "
        "Schießscharten in den Burggraben (1.46)",
        "siege.sight_from_opening": "{cell}: die Linie beginnt an der Öffnung zu {towards}, und "
        "die Entfernung zählt ab der Mauer (1.44)",
        "siege.sight_from_battlement": "{cell}: die Linie beginnt an den Zinnen zu {towards}, "
        "und die Entfernung zählt ab der Mauer (1.44)",
        "siege.sight_slit_only": "{cell}: eine Figur hinter einer Schießscharte schießt nur durch "
        "ihre Öffnung ({openings}) (1.44)",
        "siege.sight_from_door": "{cell}: die Linie beginnt an der Tür zu {towards}, nicht in "
        "der Mitte des Feldes (1.43)",
        "siege.sight_building_out": "{cell}: aus einem Gebäude schießt man nur durch seine "
        "Türen und Schießscharten hinaus (1.43)",
        "siege.sight_beyond_range": "Entfernung {distance} liegt jenseits der großen Reichweite "
        "({long})",
        "siege.sight_slit_line": "{cell}: eine Figur hinter einer Schießscharte ist nur von der "
        "geraden Linie durch ihre Öffnung aus zu treffen (1.45)",
        "siege.sight_slit_cover": "{cell}: hinter einer Schießscharte, durch ihre Öffnung "
        "beschossen: schwere Deckung (1.51)",
        "siege.sight_battlement_cover": "{cell}: die Linie kreuzt die Zinnen: schwere Deckung "
        "(1.51)",
        "siege.sight_doorway_cover": "{cell}: in einer Tür, gedeckt gegen die {facing}: "
        "mittlere Deckung (1.53)",
        "siege.sight_doorway_open": "{cell}: in einer Tür, gedeckt gegen die {facing}; dieser "
        "Schuss kommt von der {shot_side}: keine Deckung (1.53)",
        "siege.sight_no_opening": "{cell}: hinter einer Mauer ohne Öffnung: volle Deckung, kein "
        "Schuss (1.56)",
        "siege.sight_in_moat": "{cell}: im Burggraben: keine Deckung (1.55)",
        "siege.sight_on_breach": "{cell}: auf einer zerstörten Mauer: mittlere Deckung von "
        "allen Seiten (2.32)",
        "siege.sight_gateway": "{cell}: im Tordurchgang zwischen den Tortürmen, Zugbrücke unten: "
        "schwere Deckung gegen Schüsse von außen (1.57)",
        "siege.sight_tower_over_parapets": "{cell}: von der Plattform eines Belagerungsturms "
        "schießt man über die Brustwehren in die Burg, ob die Zugbrücke oben ist oder nicht "
        "(2.43)",
        "siege.sight_bridge_up": "{cell}: die Zugbrücke ist oben, alle in der Burg haben volle "
        "Deckung gegen Schüsse von außen (1.52, 1.57)",
        "siege.sight_through_breach": "{cell}: durch die Bresche trifft der Schuss in die Burg "
        "(2.32)",
        "siege.sight_siege_tower": "{cell}: ein Belagerungsturm: man schießt auf ihn, nie durch "
        "ihn hindurch (2.44)",
        "siege.sight_grazes": "die Linie läuft an der Kante {a}/{b} entlang und streift eine "
        "Mauer: {inner} (1.45, 1.46)",
        "siege.sight_side_blocked": "die Linie läuft an der Kante {a}/{b} entlang, auf beiden "
        "Seiten blockiert: {inner}",
        "siege.sight_between": "die Linie läuft zwischen {a} und {b} hindurch, beide blockiert: "
        "{first}; {second}",
        "siege.sight_corner": "die Linie berührt eine Ecke von {cell} ({what}, Höhe {height}, "
        "höher als beide Enden) und streift ihre Mauer: blockiert (1.45)",
        "siege.sight_door_passed": "{cell}: die Linie geht auf der Höhe des Schützen durch die "
        "Tür (1.43)",
        "siege.sight_no_door": "{cell}: in einem Gebäude, durch keine Tür und keine "
        "Schießscharte erreichbar: kein Schuss (1.56)",
        "siege.sight_thicket": "die Linie geht durch das Dickicht in {cells}: leichte Deckung "
        "(3.21)",
        "siege.sight_trench": "die Figuren im Schützengraben auf {cells} behindern den Schuss "
        "nicht (3.25)",
        "siege.sight_tower_sees_over": "von der Plattform eines Belagerungsturms behindern "
        "innerhalb von {radius} Feldern die tieferen Figuren in {cells} den Schuss nicht (2.43)",
        "siege.sight_over_figures": "schießt auf {band} über die Figuren in {cells} hinweg: "
        "leichte Deckung (1.42)",
        "siege.sight_cover_of": "Deckung von {cell}: {cover}",
        "siege.sight_tree": "{cell}: ein Baum steht zwischen Schütze und Ziel: kein Schuss (3.22)",
        "siege.sight_tent": "{cell}: ein Zelt: man schießt in ein Zelt, nie hindurch, bis es "
        "abgebrannt ist (3.24)",
        "siege.sight_camp_open": "{cell} ({what}): von der Plattform eines Belagerungsturms "
        "innerhalb seines Radius beschossen: keine Deckung (2.43)",
        "siege.sight_camp_cover": "{cell} ({what}): {cover} ({rule})",
        "siege.sight_both": "{first}; {second}",
        "siege.sight_hilltop": "{cell}: die Hügelkuppe ist höher als beide Enden: blockiert "
        "(3.23, 1.41)",
        "siege.sight_slope_edge": "die Linie kreuzt die Hangkante bei {cell}, dem letzten Feld "
        "der Hügelkuppe (3.23)",
        "siege.sight_on_slope": "{cell}: die tiefere Figur steht am Hang: beide dürfen schießen "
        "(3.23)",
        "siege.sight_edge_hides": "{cell}: die Hangkante verdeckt {lower}: es steht {d_low} von "
        "der Kante entfernt, näher als {upper} ({d_up}) (3.23)",
        "siege.sight_edge_far": "{lower}, die tiefere Figur, steht {d_low} von der Kante "
        "entfernt, mindestens so weit wie {upper} ({d_up}) (3.23)",
        "siege.sight_edge_cover": "{cell}: an der Hangkante: leichte Deckung (3.23)",
        "siege.sight_under_ram_shooter": "{cell}: Figuren unter einem Widder schießen nicht (4.33)",
        "siege.sight_under_ram": "{cell}: volle Deckung unter dem Widder (4.33)",
        "siege.sight_engine_lower": "{cell}: {engine} steht tiefer als die Plattform des "
        "Belagerungsturms: kein Hindernis (2.43, E16)",
        "siege.sight_engine_blocks": "{cell}: {engine} steht dort: kein Schuss hindurch ({rule})",
        "siege.sight_shield": "{cell}: ein Schirm an der Kante zu {faces} deckt das Ziel "
        "({cover}, 5.22)",
        "siege.sight_wagon": "{cell}: Wagen {wagon} blockiert die Linie auf seiner Höhe (5.11)",
        "siege.sight_friend_beside": "{cell}: {name}, ein Freund des Schützen, steht neben dem "
        "Ziel auf dessen Höhe: kein Schuss vom Belagerungsturm (2.43)",
        # A referee setting a step (/ref phase)
        "siege.ref_prepare": "Vor dem Sturm legt der Belagerer Spielsteine, stellt Türme auf "
        "und bedient seine Kriegsmaschinen; sein /end-phase beginnt den Sturm des Tages.",
        "siege.ref_finish_pending": "Zuerst den Nahkampf zu Ende bilden (/fight oder /cancel), "
        "dann einen Schritt setzen.",
        "siege.ref_finish_choice": "Zuerst entscheiden, welche Figur ein Ergebnis trifft "
        "(/take), dann einen Schritt setzen.",
        "siege.ref_finish_retreat": "Zuerst den Rückzug ausführen (/retreat), dann einen "
        "Schritt setzen.",
        "siege.ref_finish_advance": "Zuerst über das Nachrücken nach dem Kampf entscheiden "
        "(/advance oder /stay), dann einen Schritt setzen.",
        "siege.ref_finish_landing": "Zuerst wählen, wo eine fallende Figur landet (/land), dann "
        "einen Schritt setzen.",
        "siege.ref_finish_engine_damage": "Zuerst wählen, welche Kriegsmaschine beschädigt wird "
        "(/damage), dann einen Schritt setzen.",
        "siege.ref_finish_panic_choice": "Zuerst wählen, wer in Panik gerät (/panic), dann "
        "einen Schritt setzen.",
        # Words filled into the sight reasons.
        "top of a siege tower": "Plattform eines Belagerungsturms",
        "castle wall": "Burgmauer",
        "keep battlement": "Zinnen des Burgfrieds",
        "burnt tent": "abgebranntes Zelt",
        "inside": "Innenseite",
        "outside": "Außenseite",
        "no cover": "keine Deckung",
        "light cover": "leichte Deckung",
        "medium cover": "mittlere Deckung",
        "heavy cover": "schwere Deckung",
        "full cover": "volle Deckung",
        "short range": "kurze Entfernung",
        "medium range": "mittlere Entfernung",
        "long range": "große Entfernung",
        "none": "keine",
        "light": "leicht",
        "medium": "mittel",
        "heavy": "schwer",
        "full": "voll",
        "short": "kurz",
        "long": "weit",
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
