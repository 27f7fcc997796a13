"""A dict keyed by tuples of strings (a heterogeneous graph's edge types, `("user", "rates", "item")`) holds
its tensors' facts like one keyed by strings: written, read back by the same key, or one held in a config."""
import pytest

from .conftest import codes
from .snippets import run_program

PROGRAM = """
import numpy as np
import torch

CONFIG = {"relation": ("domain", "resolves", "ip"), "num_ips": 5}


def load_edges(rows):
    return torch.from_numpy(np.asarray(rows, dtype=np.float64)).t()


def degree(edge_index, num_nodes):
    src, dst = edge_index
    return torch.zeros(num_nodes).scatter_add_(0, dst, torch.ones(dst.numel()))


if __name__ == "__main__":
    edges = {CONFIG["relation"]: load_edges([[0, 1], [1, 1], [2, 0]])}
    RESULT = degree(edges[CONFIG["relation"]], CONFIG["num_ips"])
"""


def test_a_float_edge_list_under_an_edge_type(torch):
    assert codes(PROGRAM) == ["GL008"]
    with pytest.raises(RuntimeError, match="int32/int64"):
        run_program(PROGRAM)
    fixed = PROGRAM.replace("dtype=np.float64", "dtype=np.int64")
    assert codes(fixed) == []
    assert run_program(fixed).tolist() == [1.0, 2.0, 0.0, 0.0, 0.0]


def test_the_same_dict_written_by_key():
    written = PROGRAM.replace('    edges = {CONFIG["relation"]: load_edges([[0, 1], [1, 1], [2, 0]])}',
                              '    edges = {}\n    edges[("domain", "resolves", "ip")] = load_edges([[0, 1], [1, 1], [2, 0]])')
    assert written != PROGRAM
    assert codes(written) == ["GL008"]
