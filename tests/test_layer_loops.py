"""A loop over a ModuleList of this file's own layers (`for layer in self.layers: x = layer(x, idx)`) runs
the layer's forward with the tensors from before the loop on its first pass; a list of layers built over
`zip(dims[:-1], dims[1:])` gives each layer what the sizes agree on."""
import pytest

from .conftest import codes
from .snippets import run_program

PROGRAM = """
import torch
import torch.nn as nn

CONFIG = {"in_dim": 5, "hidden_dim": 4, "layers": 2}


class GraphLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, src):
        h = self.lin(x)
        return h.gather(0, src.unsqueeze(1))


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dims = [cfg["in_dim"]] + [cfg["hidden_dim"]] * cfg["layers"]
        self.layers = nn.ModuleList([GraphLayer(a, b) for a, b in zip(dims[:-1], dims[1:])])

    def forward(self, x, src):
        for layer in self.layers:
            x = layer(x, src)
        return x


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(7, 5)
    src = torch.randint(0, 7, (7,))
    layer = Encoder(CONFIG).layers[0]
    RESULT = layer(x, src), layer.lin(x)[src]
"""


def test_the_first_pass_of_a_layer_loop_is_checked(torch):
    assert codes(PROGRAM) == ["GL005"]  # [N, 1] index into [N, 4]: only column 0
    picked, rows = run_program(PROGRAM)
    assert picked.shape == (7, 1) and rows.shape == (7, 4)  # torch: one column of each row, silently
    fixed = PROGRAM.replace("src.unsqueeze(1))", "src.unsqueeze(1).expand(-1, h.size(1)))")
    assert codes(fixed) == []
    picked, rows = run_program(fixed)
    assert torch.equal(picked, rows)


@pytest.mark.parametrize("built", [
    "nn.ModuleList([GraphLayer(5, 4)])",
    "nn.ModuleList([GraphLayer(a, 4) for a in dims[:-1]])",
])
def test_other_ways_to_build_the_list(torch, built):
    program = PROGRAM.replace("nn.ModuleList([GraphLayer(a, b) for a, b in zip(dims[:-1], dims[1:])])", built)
    assert program != PROGRAM
    assert codes(program) == ["GL005"]
