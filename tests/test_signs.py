"""GL014 on a max onto zeros reads the values' sign, which only the code's evidence sets (static/signs.py).

Each program is linted and run in torch: a finding goes with a pooled result that the buffer's zeros change,
silence with one they do not (or with values whose sign nothing shows).
"""
import pytest

from .conftest import codes
from .snippets import call_run as run

POOL = """
import torch
import torch.nn as nn
import torch.nn.functional as F


def pool(values, segment, count):
    out = values.new_zeros(count, values.shape[1])
    index = segment[:, None].expand_as(values)
    return out.scatter_reduce(0, index, values, reduce="amax")


def run():
    torch.manual_seed(0)
    segment = torch.tensor([0, 0, 1, 2, 2, 2])
    x = torch.randn(6, 4)
    values = VALUES
    pooled = pool(values, segment, 3)
    exact = values.new_zeros(3, 4).scatter_reduce(0, segment[:, None].expand_as(values), values, "amax", include_self=False)
    return torch.equal(pooled, exact)
"""

# (what gives the values, whether the code shows values below 0)
CASES = [
    ("torch.randn(6, 4)", True),
    ("nn.Linear(4, 4)(x)", True),
    ("nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4))(x)", True),
    ("F.logsigmoid(x)", True),
    ("torch.log(torch.rand(6, 4))", True),
    ("torch.rand(6, 4) - 0.5", True),
    ("-torch.rand(6, 4)", True),
    ("torch.tensor([[-1.0, 2.0, -3.0, -4.0]]).repeat(6, 1)", True),
    ("torch.cat([x.abs()[:3], -torch.rand(3, 4)], 0)", True),
    ("F.relu(x)", False),
    ("torch.rand(6, 4)", False),
    ("F.one_hot(torch.arange(6) % 4, 4).float()", False),
    ("torch.cat([F.one_hot(torch.arange(6) % 3, 3).float(), torch.rand(6, 1)], 1)", False),
    ("nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4), nn.ReLU())(x)", False),
    ("torch.tanh(x) + 1", False),
    ("x - x.min(0).values", False),
    ("torch.tanh(x.abs())", False),
]


@pytest.mark.parametrize("values,signed", CASES, ids=[c[0] for c in CASES])
def test_max_onto_zeros_reported_where_the_code_shows_values_below_zero(values, signed, torch):
    program = POOL.replace("VALUES", values)
    assert codes(program) == (["GL014"] if signed else [])
    assert run(program) is not signed  # torch: the zeros change the maxima exactly where it is reported


def test_a_parameter_of_unknown_sign_is_its_callers_to_show(torch):
    alone = POOL.split("def run")[0]
    assert codes(alone) == []  # nothing shows the values' sign: no finding on the helper alone
    unknown = POOL.replace("values = VALUES", "values = encoder(x)").replace("def run():", "def run(encoder=torch.exp):")
    assert codes(unknown) == []  # an unknown callable's output: no evidence either way
    assert run(unknown) is True


def test_local_values_of_a_signed_layer_are_reported_in_the_function_itself(torch):
    program = """
import torch
import torch.nn as nn


class Readout(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))

    def forward(self, x, batch, graphs):
        h = self.mlp(x)
        pooled = h.new_zeros(graphs, h.size(1))
        return pooled.scatter_reduce(0, batch[:, None].expand_as(h), h, reduce="amax")


def run():
    torch.manual_seed(0)
    x, batch = torch.randn(7, 5), torch.tensor([0, 0, 1, 1, 1, 2, 2])
    model = Readout(5)
    h = model.mlp(x)
    exact = h.new_zeros(3, 5).scatter_reduce(0, batch[:, None].expand_as(h), h, "amax", include_self=False)
    return torch.equal(model(x, batch, 3), exact)
"""
    assert codes(program) == ["GL014"]
    assert run(program) is False
    relu = program.replace("nn.Linear(dim, dim))", "nn.Linear(dim, dim), nn.ReLU())")
    assert codes(relu) == []
    assert run(relu) is True
