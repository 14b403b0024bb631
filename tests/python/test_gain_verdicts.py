"""scripts/gain_verdicts.py keeps judged `gain` values as data and sets them beside a build's:
each row agrees, is mended, moved off the judge's value, or is still wrong."""

import importlib.util
import os

import polars as pl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("gain_verdicts", os.path.join(ROOT, "scripts", "gain_verdicts.py"))
gain_verdicts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gain_verdicts)


def test_each_judged_value_is_set_beside_the_builds(tmp_path):
    verdicts = tmp_path / "verdicts.csv"
    verdicts.write_text(
        "puzzle_id,ply,label,gain,judged,verdict,why\n"
        "aaaaa,1,fork,3,3,RIGHT,the knight falls\n"
        "bbbbb,3,pin,2,3,WRONG,the line's end: a pawn falls too\n"
        "ccccc,1,skewer,5,5,RIGHT,the rook falls\n"
        "ddddd,5,fork,1,2,WRONG,a quiet move wins a pawn\n"
        "eeeee,1,fork,1,mate,WRONG,a mate follows\n"
    )
    archive = tmp_path / "archive.csv"
    assert gain_verdicts.add("6400", "abc1234", verdicts, archive) == 4
    fires = pl.DataFrame(
        {
            "puzzle_id": ["aaaaa", "bbbbb", "ccccc", "ddddd"],
            "ply": [1, 3, 1, 5],
            "label": ["fork", "pin", "skewer", "fork"],
            "gain": [3, 3, 4, 1],
        },
        schema_overrides={"ply": pl.Int32, "gain": pl.Int32},
    )
    rows = gain_verdicts.compare(gain_verdicts.read_archive(archive), fires).sort("puzzle_id")
    assert rows["state"].to_list() == ["agrees", "mended", "moved off", "still"]
    assert rows["now"].to_list() == [3, 3, 4, 1]
    assert rows["round"].to_list() == ["6400"] * 4


def test_a_fire_the_build_no_longer_gives_is_no_agreement(tmp_path):
    archive = tmp_path / "archive.csv"
    archive.write_text(
        ",".join(gain_verdicts.COLUMNS) + "\n" + "c6400,abc1234,aaaaa,1,fork,3,3,right\n"
    )
    fires = pl.DataFrame({"puzzle_id": ["zzzzz"], "ply": [1], "label": ["fork"], "gain": [3]})
    rows = gain_verdicts.compare(gain_verdicts.read_archive(archive), fires)
    assert rows["state"].to_list() == ["moved off"]
    assert rows["now"].to_list() == [None]


def test_a_change_round_keeps_the_value_of_the_build_kept(tmp_path):
    # A change round shows two builds' values, A the old and B the one kept: B's is the gain judged.
    verdicts = tmp_path / "verdicts.csv"
    verdicts.write_text(
        "puzzle_id,ply,label,value_a,value_b,judged,verdict,why\n"
        "aaaaa,1,fork,3,4,4,B,a pawn falls too\n"
        "bbbbb,3,pin,1,2,1,A,nothing more falls\n"
    )
    archive = tmp_path / "archive.csv"
    assert gain_verdicts.add("c6400", "abc1234", verdicts, archive) == 2
    rows = gain_verdicts.read_archive(archive).sort("puzzle_id")
    assert rows["gain"].to_list() == [4, 2]
    assert rows["judged"].to_list() == [4, 1]


def test_a_round_judged_under_both_readings_goes_in_as_two_rounds(tmp_path):
    # The capture reading's verdicts keep the round's seed with a `cap` suffix, the best reading's
    # the seed alone, so each reading's figure can be read again on any build.
    verdicts = tmp_path / "verdicts.csv"
    verdicts.write_text(
        "puzzle_id,ply,label,gain,judged_capture,verdict_capture,judged_best,verdict_best,why\n"
        "aaaaa,1,fork,3,3,RIGHT,4,WRONG,a quiet move picks up a pawn\n"
        "bbbbb,3,pin,2,2,RIGHT,2,RIGHT,nothing more falls\n"
    )
    archive = tmp_path / "archive.csv"
    assert gain_verdicts.add("6400", "abc1234", verdicts, archive) == 4
    rows = gain_verdicts.read_archive(archive).sort("round", "puzzle_id")
    assert rows["round"].to_list() == ["6400", "6400", "6400cap", "6400cap"]
    assert rows["judged"].to_list() == [4, 2, 3, 2]
    assert rows["gain"].to_list() == [3, 2, 3, 2]


def test_each_reading_is_summed_over_the_fresh_rounds_judged_both_ways():
    # Rounds of 25, each reading's right counts then and now; a round at 24 or more meets the bar.
    # A change round, a second judge (a letter after the seed) and a seed judged one way only are
    # left out.
    per_round = pl.DataFrame(
        {
            "round": ["6400", "6400cap", "6403", "6403cap", "c6401", "c6401cap", "6400b", "6400bcap", "6406"],
            "judged": [25, 25, 25, 25, 18, 18, 25, 25, 25],
            "right_then": [20, 24, 22, 23, 10, 16, 19, 25, 25],
            "right_now": [21, 25, 22, 24, 11, 16, 19, 25, 25],
        }
    )
    both = gain_verdicts.by_reading(per_round)
    assert both["reading"].to_list() == ["capture", "best"]
    assert both["rounds"].to_list() == [2, 2]
    assert both["judged"].to_list() == [50, 50]
    assert both["right_then"].to_list() == [47, 42]
    assert both["right_now"].to_list() == [49, 43]
    assert both["rounds_24_then"].to_list() == [1, 0]
    assert both["rounds_24_now"].to_list() == [2, 0]
