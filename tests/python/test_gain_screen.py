"""scripts/gain_screen.py reads `koga explain`'s text: the position, the line, the solver and the
after-the-line figure. Its contract with the CLI is checked here on the README's puzzle (no
python-chess or Stockfish needed)."""
import importlib.util
import os
import subprocess

from conftest import ROOT, koga_binary

spec = importlib.util.spec_from_file_location("gain_screen", os.path.join(ROOT, "scripts", "gain_screen.py"))
gain_screen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gain_screen)

FEN = "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37"


def explain(moves):
    return subprocess.run([koga_binary(), "explain", FEN, moves], check=True, capture_output=True, text=True).stdout


def test_reads_the_line_and_turns_the_figure_to_the_solvers_side():
    # Lichess 000Pw: after ...Nxc3, White, to move, still nets 2 by Koga's capture search; the solver
    # is Black, so on the solver's side the figure is -2.
    assert gain_screen.read_explain(explain("e4d2 d4e2 g1f1 e2c3")) == (
        FEN,
        ["e4d2", "d4e2", "g1f1", "e2c3"],
        False,
        -2,
    )


def test_a_line_that_mates_has_no_figure():
    # A back-rank mate, ...Ra1#: explain prints no after-the-line figure.
    text = subprocess.run(
        [koga_binary(), "explain", "r5k1/5ppp/8/8/8/8/1P3PPP/6K1 w - - 0 1", "b2b3 a8a1"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "after the line" not in text
    assert gain_screen.read_explain(text) is None
