"""Battle Mode: fighters and objectives on the map, and the players' panel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import kit
from render.dire_alliance.layout import BLACK, HEIGHT, MAP_TOP, PANEL_X, SIDE, STUNNED, pt
from render.dire_alliance.tokens import dice_strip, short_label, status_caption, token_stamp
from render.kit import INK, MUTED


def draw_battle(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """Fighters and objectives on the map, and a panel of initiative, each player's piles and
    the last attack's dice."""
    board = view["board"]
    status_caption(f, _status(view))
    areas = {a["id"]: a for a in board["areas"]}
    for i, o in enumerate(view["objectives"]):
        dx, dy = pt(areas[o["area"]]["designator"])
        x, y = dx - 34, dy + 26 + 0 * i
        colour = SIDE.get(o["owner"], INK)
        f.rect((x, y, x + 16, y + 16), fill=STUNNED if o["claimed_by"] else colour, outline=BLACK, width=2)
        if o["claimed_by"]:
            f.line([(x, y), (x + 15, y + 15)], BLACK, 2)
            f.line([(x + 15, y), (x, y + 15)], BLACK, 2)
    for fid, at in battle_spots(view).items():
        f.put(token_stamp(view["fighters"][fid], short_label(view["names"].get(fid, fid))), at)
    _panel(f, view, names)
    return f.png()


def battle_spots(view: Mapping[str, Any]) -> dict[str, kit.Point]:
    """Where each fighter still in play stands: side by side round its area's sight point."""
    areas = {a["id"]: a for a in view["board"]["areas"]}
    crowd: dict[int, int] = {}
    at: dict[str, kit.Point] = {}
    for fid, fighter in view["fighters"].items():
        if fighter["defeated"]:
            continue
        n = crowd.get(fighter["area"], 0)
        crowd[fighter["area"]] = n + 1
        dx, dy = pt(areas[fighter["area"]]["designator"])
        at[fid] = dx - 40 + (n % 4) * 33, dy - 24 + (n // 4) * 33 - (4 if n >= 4 else 0)
    return at


def _status(view: Mapping[str, Any]) -> str:
    if view.get("result"):
        r = view["result"]
        return ("Winner: " + r["winners"][0] if r["winners"] else "Draw") + f" - {r['reason']}"
    role = "Aggressor" if view["step"].startswith("A") else "Defender"
    limit = f" of {view['round_limit']}" if view.get("round_limit") else ""
    to_act = ", ".join(view["to_act"])
    return f"Round {view['round']}{limit} · {role} Turn {view['step'][1]} · to act: {to_act}"


def _panel(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str]) -> None:
    x, y = PANEL_X, MAP_TOP
    init = view["initiative"]
    f.ellipse((x, y, x + 26, y + 26), fill=SIDE.get(init, INK), outline=BLACK, width=2)
    f.text((x + 34, y + 13), f"Initiative: {init}", 14, INK, anchor="lm")
    y += 40
    # The scenario's goal, from the first picture on (the round limit is in the caption).
    goal = f" of {view['claim_to_win']} to win" if view.get("claim_to_win") else ""
    for colour, p in view["players"].items():
        who = names.get(colour, "")
        f.rect((x, y, x + 8, y + 98), fill=SIDE.get(colour, INK))
        f.text((x + 14, y + 8), f.fit(f"{colour}{' - ' + who if who else ''}", 14, 260), 14, INK, anchor="lm")
        f.text(
            (x + 14, y + 28),
            f.fit(f"{p['faction_name']}, led by {view['names'].get(p['leader'], '')}", 12, 260),
            12,
            MUTED,
            anchor="lm",
        )
        f.text((x + 14, y + 48), f"hand {p['hand_size']} · deck {p['deck_size']}", 13, INK, anchor="lm")
        f.text(
            (x + 14, y + 66),
            f"discard {len(p['discard'])} · graveyard {len(p['graveyard'])}",
            13,
            INK,
            anchor="lm",
        )
        f.text((x + 14, y + 84), f"objectives claimed: {p['claimed']}{goal}", 13, INK, anchor="lm")
        y += 112
    y = _token_key(f, view, x, y)
    attack = view.get("last_attack")
    if not attack:
        return
    f.text((x, y + 6), "Last attack", 14, INK, anchor="lm")
    y += 20
    who = view["names"].get(attack["attacker"], attack["attacker"])
    f.text((x, y + 8), f.fit(f"{who} ({attack['kind']})", 12, 280), 12, MUTED, anchor="lm")
    y += 18
    dice_strip(f, x, y, attack["attack"], attack.get("vampire"))
    y += 28
    for d in attack["defences"]:
        name = view["names"].get(d["target"], d["target"])
        f.text((x, y + 8), f.fit(f"{name}: {'hit' if d['hit'] else 'miss'}", 12, 280), 12, MUTED, anchor="lm")
        y += 18
        dice_strip(f, x, y, d["faces"], d.get("vampire"))
        y += 28
        if y > HEIGHT - 40:
            break


def token_key(view: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each side's fighters on the map as the key under the panel lists them: a token's three
    letters beside the fighter's whole name ("Gra  The Gravedigger")."""
    key: dict[str, list[str]] = {}
    for fid, fighter in view["fighters"].items():
        if not fighter["defeated"]:
            name = view["names"].get(fid, fid)
            key.setdefault(fighter["owner"], []).append(f"{short_label(name)}  {name}")
    return key


def _token_key(f: kit.Frame, view: Mapping[str, Any], x: int, y: int) -> int:
    """The key to the tokens' letters, a column for each side: the letters alone name nobody."""
    key = token_key(view)
    f.text((x, y + 6), "Tokens", 14, INK, anchor="lm")
    y += 22
    for col, colour in enumerate(view["players"]):
        for row, line in enumerate(key.get(colour, [])):
            at = (x + col * 140 + 12, y + row * 17 + 8)
            f.ellipse((at[0] - 12, at[1] - 5, at[0] - 2, at[1] + 5), fill=SIDE.get(colour, INK))
            f.text(at, f.fit(line, 12, 126), 12, INK, anchor="lm")
    return y + max((len(v) for v in key.values()), default=0) * 17 + 8
