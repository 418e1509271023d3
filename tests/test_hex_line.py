"""The straight hex line (pbem.engines.hexgrid.hex_line) that both the Custer map builder and
line of sight use, and the shipped Custer maps being exactly what the builder makes with it."""

import importlib.util

import pytest

from pbem.engines import hexgrid
from pbem.engines.hexgrid import adjacent, distance, hex_line
from tests.support import ROOT

BUILDER = ROOT / "data" / "custer" / "build_maps.py"


@pytest.mark.parametrize("a, b", [("0101", "0105"), ("0303", "0704"), ("1412", "0201"), ("0508", "0508"), ("2220", "2018")])
def test_a_hex_line_steps_from_one_end_to_the_other_hex_by_hex(a, b):
    for nudge in (1e-6, -1e-6):
        line = hex_line(a, b, nudge)
        assert line[0] == a and line[-1] == b and len(line) == distance(a, b) + 1
        assert all(adjacent(x, y) for x, y in zip(line, line[1:]))


def test_a_line_along_hexsides_has_a_side_for_each_nudge():
    """0303 to 0704 runs along hexsides between 0504 and 0503: each nudge takes one side."""
    assert hex_line("0303", "0704") == ("0303", "0403", "0504", "0603", "0704")
    assert hex_line("0303", "0704", -1e-6) == ("0303", "0403", "0503", "0603", "0704")


def _builder(tmp_path):
    spec = importlib.util.spec_from_file_location("custer_build_maps", BUILDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = tmp_path  # write the maps here, not over the shipped ones
    return module


def test_the_map_builder_draws_its_lines_with_the_engines_geometry(tmp_path):
    builder = _builder(tmp_path)
    assert builder.hex_line is hexgrid.hex_line and builder.neighbours is hexgrid.neighbours
    assert builder.distance is hexgrid.distance


def test_the_shipped_custer_maps_are_what_the_builder_makes(tmp_path):
    """Run the builder into a temporary folder: every map and scenario file it writes is
    byte for byte the shipped one (a change to the builder or the geometry shows here)."""
    _builder(tmp_path).main()
    built = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.json"))
    assert built, "the builder wrote nothing"
    for rel in built:
        shipped = ROOT / "data" / "custer" / rel
        assert (tmp_path / rel).read_bytes() == shipped.read_bytes(), f"{rel} differs from a fresh build"
