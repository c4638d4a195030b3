"""The local table survives a referee's phase change to no phase or an unknown one (issue 8):
the engine refuses it, the table prints the refusal and goes on."""

import pytest

from .test_table import run


@pytest.mark.parametrize("line", ["referee /ref-phase", "referee /ref-phase phase:bogus"])
def test_a_referee_phase_without_a_known_phase_is_refused_and_the_table_goes_on(tmp_path, line):
    code, lines, err = run(
        ["--game", "skirmish", "--seed", "5", "--db", str(tmp_path / "t.db")],
        tmp_path,
        [line, "red /move unit:r1 to:0201"],
    )
    assert [entry["ok"] for entry in lines] == [False, True], (lines, err)
    assert "Legal: move, fire." in lines[0]["error"]
    assert lines[0]["version"] == 0
