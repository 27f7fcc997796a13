"""GL013 where positions are tuples: a flat batch's group ids beside rounded coordinates, and the neighbour
pairs of one token sequence. Each claim is run in torch."""
import textwrap

from .conftest import lint

RASTER = '''
import torch

def rasterize(points, batch_idx, batch_size, height, width):
    # points: [N, 4]  (x, y, z, intensity)
    # batch_idx: [N]  the sample of each point
    ix = (points[:, 0] / 0.5).floor().long().clamp(0, width - 1)
    iy = (points[:, 1] / 0.5).floor().long().clamp(0, height - 1)
    bev = points.new_zeros(batch_size, height, width)
    bev.index_put_((batch_idx, iy, ix), points[:, 3]{ACCUMULATE})
    return bev


def densify(x, batch, slot):
    # x: [N, D]
    out = x.new_zeros(4, 10, x.size(1))
    out[batch, slot] = x
    return out
'''


def _codes(code: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(code))]


def test_group_ids_beside_rounded_coordinates_repeat_within_a_sample(torch):
    assert _codes(RASTER.replace("{ACCUMULATE}", "")) == [("GL013", 10)]
    points = torch.tensor([[0.1, 0.1, 0.0, 1.0], [0.2, 0.3, 0.0, 2.0], [0.1, 0.1, 0.0, 5.0]])
    batch_idx = torch.tensor([0, 0, 1])
    ix, iy = (points[:, 0] / 0.5).floor().long(), (points[:, 1] / 0.5).floor().long()
    bev = points.new_zeros(2, 2, 2)
    bev.index_put_((batch_idx, iy, ix), points[:, 3])
    assert bev[0, 0, 0].item() in (1.0, 2.0)  # one of the two points of sample 0 in that cell, not 3.0
    summed = points.new_zeros(2, 2, 2).index_put_((batch_idx, iy, ix), points[:, 3], accumulate=True)
    assert summed[0, 0, 0].item() == 3.0


def test_accumulating_is_silent_and_group_ids_with_a_slot_per_row_are_not_evidence():
    assert _codes(RASTER.replace("{ACCUMULATE}", ", accumulate=True")) == []


def test_the_function_need_not_spell_torch_in_a_file_of_several():
    """`points.new_zeros` says the function works on tensors: the finding does not depend on the file's other
    functions (a lone function was analysed, the same one beside others was skipped)."""
    code = RASTER.replace("{ACCUMULATE}", "").replace("import torch\n", "") + "\n\ndef other():\n    return 1\n"
    assert [c for c, _ in _codes(code)] == ["GL013"]


BIGRAMS = '''
import torch
from jaxtyping import Float, Int

def count_transitions(tokens: Int[torch.Tensor, "seq"], vocab_size: int) -> Float[torch.Tensor, "vocab vocab"]:
    counts = torch.zeros(vocab_size, vocab_size)
    {WRITE}
    return counts
'''


def test_neighbour_pairs_of_one_sequence_repeat_as_bigrams(torch):
    assert _codes(BIGRAMS.replace("{WRITE}", "counts[tokens[:-1], tokens[1:]] += 1")) == [("GL013", 7)]
    tokens = torch.tensor([0, 1, 0, 1, 0])  # the bigram (0, 1) occurs twice
    counts = torch.zeros(2, 2)
    counts[tokens[:-1], tokens[1:]] += 1
    assert counts[0, 1].item() == 1.0  # counted once
    right = torch.zeros(2, 2).index_put_((tokens[:-1], tokens[1:]), torch.ones(4), accumulate=True)
    assert right[0, 1].item() == 2.0


def test_accumulated_bigrams_and_two_named_id_lists_stay_silent():
    accumulated = "counts.index_put_((tokens[:-1], tokens[1:]), torch.ones(tokens.size(0) - 1), accumulate=True)"
    assert _codes(BIGRAMS.replace("{WRITE}", accumulated)) == []
    sparse = BIGRAMS.replace("tokens: Int[torch.Tensor, \"seq\"]", "row_ids: Int[torch.Tensor, \"nnz\"], col_ids: Int[torch.Tensor, \"nnz\"]")
    assert _codes(sparse.replace("{WRITE}", "counts[row_ids, col_ids] += 1")) == []
