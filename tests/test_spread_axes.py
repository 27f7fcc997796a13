"""An index spread from size 1 along the gathered dim holds one position per row, however the size-1 dim was made
(a keepdim sum, a view, an unsqueeze) and however the expand was spelled (`expand(*x.shape)`, `expand_as`,
`repeat`): gathering along that dim reads one entry per row, copied. Contextual positions counted with a
keepdim sum and expanded over the keys give every key the same position bias. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

COPE = '''
import torch

def position_bias(logits_int, gates):
    # logits_int: (batch, time1, npos); gates: (batch, time1, time2)
    pos = gates.sum(dim=-1, keepdim=True).clamp(max=logits_int.size(-1) - 1)  # (batch, time1, 1)
    idx = pos.long()
    return logits_int.gather(-1, idx.expand(*logits_int.shape))

def run():
    torch.manual_seed(0)
    return position_bias(torch.randn(2, 5, 5), torch.rand(2, 5, 5))
'''


def test_a_keepdim_sum_expanded_over_the_gathered_dim():
    found = lint(COPE)
    assert [(f.code, f.line) for f in found] == [("GL019", 8)]
    bias = run(COPE)
    assert torch.equal(bias, bias[..., :1].expand_as(bias))  # one value per row, whatever the key


@pytest.mark.parametrize("old, new", [
    ("idx.expand(*logits_int.shape)", "idx.expand_as(logits_int)"),
    ("idx.expand(*logits_int.shape)", "idx.repeat(1, 1, logits_int.size(-1))"),
    ("    idx = pos.long()\n", "    idx = pos.long().view(pos.size(0), pos.size(1), 1)\n"),
])
def test_other_spellings_keep_the_finding(old, new):
    code = COPE.replace(old, new)
    assert code != COPE
    assert [f.code for f in lint(code)] == ["GL019"]
    bias = run(code)
    assert torch.equal(bias, bias[..., :1].expand_as(bias))


def test_positions_per_key_are_left_alone():
    # the positions counted per key (a cumulative sum), one per entry of the gathered dim: no spread
    fixed = COPE.replace("pos = gates.sum(dim=-1, keepdim=True)", "pos = gates.flip(-1).cumsum(dim=-1).flip(-1)") \
        .replace("# (batch, time1, 1)", "# (batch, time1, time2)")
    assert lint(fixed) == []
    bias = run(fixed)
    assert not torch.equal(bias, bias[..., :1].expand_as(bias))


def test_an_index_spread_along_another_dim_is_left_alone():
    code = COPE.replace("idx.expand(*logits_int.shape)", "idx.expand(-1, -1, 1)")
    assert lint(code) == []
    assert run(code).shape == (2, 5, 1)
