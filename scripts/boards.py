"""Boards at a judged move with a fire's squares drawn: the one drawing of
Koga's pictures (the gallery, the label docs), matching the arrows and
squares `koga select --format pgn` writes.

Boards are drawn by python-chess (`chess.svg`, GPL-3.0-or-later); its
pieces are Colin M.L. Burnett's (GPL-2.0-or-later), both compatible with
Koga's GPL-3.0-or-later."""
import re
import subprocess

import chess
import chess.svg

# Arrows are drawn over the pieces: translucent, so the piece under an
# arrow's head or shaft still reads.
ARROW = "#d0202099"
# Shaded squares by role (roles drawn as arrows are not shaded), strong
# enough to show on the dark squares too.
SHADES = {"victim": "#ff1a1acc", "pinned": "#ff8c00b3", "defender": "#ffd500b3", "threatened": "#ffd500b3",
          "checkers": "#ff1a1a99", "guards": "#22b022a6", "blockers": "#2f6bffa6", "escapes": "#ffd50099",
          "behind": "#ffd500b3"}
# What the colours mean, for a legend beside the boards.
LEGEND = [("arrow", ARROW, "from the piece that acts to what it acts on: a fork's targets, a pin's line, a mate's checks"),
          ("victim", SHADES["victim"], "the piece won or captured"),
          ("pinned", SHADES["pinned"], "the pinned piece"),
          ("defender", SHADES["defender"], "a defender, the piece threatened, or the piece behind a pin"),
          ("guards", SHADES["guards"], "our pieces that take the mated king's flight squares"),
          ("blockers", SHADES["blockers"], "the king's own pieces that wall it in"),
          ("move", "#cdd16a", "the judged move's from and to squares")]


def squares(value):
    """A role's squares, whether it holds one square or a list."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def drawing(roles):
    """Arrows and shaded squares for one fire's roles ({role: square(s)}):
    from the piece that acts to what it acts on, the other roles shaded."""
    arrows, fill = [], {}
    sq = chess.parse_square
    if roles.get("attacker"):
        arrows += [chess.svg.Arrow(sq(roles["attacker"]), sq(t), color=ARROW) for t in squares(roles.get("targets"))]
    if roles.get("pinner") and roles.get("pinned"):
        arrows.append(chess.svg.Arrow(sq(roles["pinner"]), sq(roles.get("behind") or roles["pinned"]), color=ARROW))
    if roles.get("mated"):
        arrows += [chess.svg.Arrow(sq(c), sq(roles["mated"]), color=ARROW) for c in squares(roles.get("checkers"))]
    for role, shade in SHADES.items():
        for s in squares(roles.get(role)):
            fill.setdefault(sq(s), shade)
    return arrows, fill


def board_at(fen, moves, ply, roles=None, size=360, coordinates=True, white_below=False):
    """The SVG board right after move `ply` of the line, from the mover's
    side (or White's, as book diagrams are), the move marked and `roles`
    drawn; and the line in SAN."""
    board = chess.Board(fen)
    sans, after, mover, judged = [], None, chess.WHITE, None
    for i, uci in enumerate(moves.split()):
        move = chess.Move.from_uci(uci)
        sans.append(board.san(move))
        if i == ply:
            mover, judged = board.turn, move
        board.push(move)
        if i == ply:
            after = board.copy()
    arrows, fill = drawing(roles or {})
    svg = chess.svg.board(after, orientation=chess.WHITE if white_below else mover, lastmove=judged, arrows=arrows, fill=fill, size=size,
                          coordinates=coordinates)
    return svg, sans


FIRE = re.compile(r"^\s+\+ (\w+)((?: \w+=\S+)*)$")


def explained_roles(koga, fen, moves, ply, label):
    """The roles of `label`'s fire on `ply`, as `koga explain` prints them."""
    text = subprocess.run([koga, "explain", fen, moves], check=True, capture_output=True, text=True).stdout
    current = None
    for line in text.splitlines():
        head = re.match(r"^ply\s+(\d+)", line)
        if head:
            current = int(head.group(1))
            continue
        fire = FIRE.match(line)
        if current == ply and fire and fire.group(1) == label:
            pairs = dict(token.split("=", 1) for token in fire.group(2).split())
            return {k: (v.split(",") if "," in v else v) for k, v in pairs.items() if k not in ("gain", "collects")}
    return {}
