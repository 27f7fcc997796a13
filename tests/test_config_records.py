"""A driver's dict of records (`"edges": [(0, 1), (1, 2)]`) reaches the helpers it is passed to: a comprehension
over the records gives torch.tensor() one item per record (static/config.py)."""
import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

PROGRAM = """
import torch


def load_graph(spec):
    src = torch.tensor([e[0] for e in spec["edges"]])
    dst = torch.tensor([e[1] for e in spec["edges"]])
    edge_index = torch.cat([torch.stack([src, dst]), torch.arange(spec["nodes"]).repeat(2, 1)], dim=1)
    weight = torch.tensor(spec["weights"])
    return edge_index, weight


def degrees(edge_index, weight, num_nodes):
    return torch.zeros(num_nodes).scatter_add_(0, edge_index[1], weight)  # expect


if __name__ == "__main__":
    spec = {"nodes": 4, "edges": [(0, 1), (1, 2), (2, 3)], "weights": [1.0, 0.5, 2.0]}
    edge_index, weight = load_graph(spec)
    RESULT = degrees(edge_index, weight, spec["nodes"])
"""


def test_records_in_a_driver_dict_size_the_tensors_made_from_them(torch):
    line = expected_lines(PROGRAM)[0]
    found = [(f.code, f.line) for f in lint(PROGRAM)]
    assert ("GL003", line) in found, found
    with pytest.raises(RuntimeError, match="to be no larger than"):
        run_program(PROGRAM)  # torch: index [7] (edges and self-loops) against src [3]


def test_weights_for_every_edge_and_loop_are_not_flagged(torch):
    fixed = PROGRAM.replace('"weights": [1.0, 0.5, 2.0]', '"weights": [1.0, 0.5, 2.0, 1.0, 1.0, 1.0, 1.0]')
    assert [f for f in lint(fixed) if f.code == "GL003"] == []
    assert run_program(fixed).tolist() == [1.0, 2.0, 1.5, 3.0]
