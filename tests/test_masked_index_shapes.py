"""One index tensor beside slices (`x[:, keep]`, `x[..., ids]`) keeps every sliced dim and puts the index's
dims in place of the ones it indexes; a 1-d mask's count is a part of the dim it ran along. A scatter whose
index holds the kept entries of a mask over src's own dim, with src whole, reads src's leading entries: GL009."""
import pytest

from gather_lint.static.analyzer import lint_source

from .conftest import codes, lint
from .snippets import call_run as run


def _shapes(program: str) -> dict:
    found = {}

    def observe(line, site, unknown):
        found[line] = (str(site.index.shape), str(site.input.shape))
    lint_source(program, "<test>", observe=observe)
    return found


@pytest.mark.parametrize("key, expected", [
    ("edge_index[:, keep]", "[2, keep.sum()]"),
    ("table[..., keep]", "[A, keep.sum()]"),
    ("cube[:, keep2d]", "[A, keep2d.sum()]"),
])
def test_a_mask_beside_slices(torch, key, expected):
    program = f"""
import torch


def run():
    A, E = 7, 12
    edge_index = torch.randint(0, 5, (2, E))
    table = torch.randn(A, E)
    cube = torch.randn(A, 3, 4)
    keep = torch.rand(E) > 0.5
    keep2d = torch.rand(3, 4) > 0.5
    picked = {key}
    return picked.gather(0, torch.zeros(1, 1, dtype=torch.long)), picked.shape
"""
    assert [input_shape for _, input_shape in _shapes(program).values()] == [expected]
    _, real = run(program)
    assert len(real) == 2  # torch: the rank the analysis gives


SCATTER = """
import torch


def aggregate(x, edge_index, edge_attr, scores):
    # x: [N, D], edge_index: [2, E], edge_attr: [E, D], scores: [E]
    keep = scores > 0.5
    dst = edge_index[:, keep][1]
    agg = x.new_zeros(x.size(0), edge_attr.size(-1))
    agg.scatter_add_(0, dst.unsqueeze(-1).expand(-1, edge_attr.size(-1)), edge_attr)
    return agg


def run():
    torch.manual_seed(0)
    x, edge_attr = torch.randn(5, 3), torch.randn(12, 3)
    edge_index, scores = torch.randint(0, 5, (2, 12)), torch.rand(12)
    keep = scores > 0.5
    wanted = torch.zeros(5, 3).index_add_(0, edge_index[1, keep], edge_attr[keep])
    return aggregate(x, edge_index, edge_attr, scores), wanted, keep
"""


def test_kept_destinations_paired_with_the_whole_src(torch):
    assert codes(SCATTER) == ["GL009"]
    got, wanted, keep = run(SCATTER)
    assert 0 < int(keep.sum()) < 12
    assert not torch.allclose(got, wanted)  # torch: leading rows of edge_attr, silently
    fixed = SCATTER.replace("edge_attr.size(-1)), edge_attr)", "edge_attr.size(-1)), edge_attr[keep])")
    assert codes(fixed) == []
    got, wanted, _ = run(fixed)
    assert torch.allclose(got, wanted)


BANK = """
import torch


def write_bank(bank, item_ids, feats, valid):
    # bank: [M, D], item_ids: [B], feats: [B, D], valid: [B]
    kept = feats[valid > 0]
    bank.index_copy_(0, item_ids, kept)
    return bank


def run():
    valid = torch.tensor([1, 1, 0, 1])
    return write_bank(torch.zeros(10, 3), torch.tensor([3, 7, 1, 5]), torch.randn(4, 3), valid)
"""


def test_every_id_written_with_the_kept_rows_only(torch):
    """GL003 the other way round: 4 ids for the 3 rows the mask kept; index_copy_ raises."""
    findings = lint(BANK)
    assert [f.code for f in findings] == ["GL003"]
    assert "what a mask keeps" in findings[0].message
    with pytest.raises(IndexError, match="Number of indices"):
        run(BANK)
    fixed = BANK.replace("index_copy_(0, item_ids, kept)", "index_copy_(0, item_ids[valid > 0], kept)")
    assert codes(fixed) == []
    assert run(fixed)[2].tolist() == [0.0, 0.0, 0.0]



def test_a_view_keeps_the_kept_count_when_numbers_divide(torch):
    """[K, 8].view(-1, 2, 4) is [K, 2, 4]: 8 / (2 * 4) leaves K alone. The decode step's keys of the
    active requests, written with the slots of every request, then raise in index_copy_."""
    program = """
import torch


def write_active(cache, slot_ids, hidden, finished, w):
    # cache: [S, 2, 4], slot_ids: [B], hidden: [B, H], finished: [B], w: [H, 8]
    active = finished == 0
    keys = (hidden[active] @ w).view(-1, 2, 4)
    cache.index_copy_(0, slot_ids, keys)
    return cache


def run():
    return write_active(torch.zeros(6, 2, 4), torch.tensor([5, 0, 3]), torch.randn(3, 5),
                        torch.tensor([0, 1, 0]), torch.randn(5, 8))
"""
    assert [s for _, s in _shapes(program).values()] == ["[S, 2, 4]"]
    assert codes(program) == ["GL003"]
    with pytest.raises(IndexError, match="Number of indices"):
        run(program)


@pytest.mark.parametrize("positions", [
    "valid > 0",  # the mask itself, as a key
    "(valid > 0).nonzero().squeeze(1)",
    "torch.where(valid > 0)[0]",
    "torch.argwhere(valid > 0)[:, 0]",
])
def test_positions_of_a_mask_count_what_it_keeps(torch, positions):
    """The same write with the kept rows picked by a mask or by its positions: one finding, one torch error."""
    program = BANK.replace("kept = feats[valid > 0]", f"keep = valid > 0\n    kept = feats[{positions.replace('valid > 0', 'keep')}]")
    assert program != BANK
    assert codes(program) == ["GL003"]
    with pytest.raises(IndexError, match="Number of indices"):
        run(program)
