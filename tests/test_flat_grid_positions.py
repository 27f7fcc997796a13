"""Flat positions of a grid (static/flat_positions.py, GL030): row numbers 0..R-1 (an arange, copied or given a
new axis) times a stride, plus positions of a dim of size C, index the R * C entries of an [R, C] tensor
flattened. Its rows are C apart: any other stride reads, for every row after the first, another row's entries.
Each program runs in torch: the flagged one reads entries other than its loop reference, the silent one matches."""
import pytest

from .conftest import lint
from .snippets import run_program

SAMPLED = """
import torch


def sampled_nll(probs, batch_size):
    # probs: [batch_size, vocab]
    samples = torch.multinomial(probs, num_samples=1).squeeze(1)
    offset = torch.arange(batch_size) * STRIDE
    flat = -torch.log(probs.view(-1))
    return READ, samples


if __name__ == "__main__":
    torch.manual_seed(0)
    probs = torch.rand(4, 50).softmax(-1)
    nll, samples = sampled_nll(probs, 4)
    RESULT = nll, torch.stack([-torch.log(probs[b, samples[b]]) for b in range(4)])
"""

BATCHED = """
import torch


def batch_gather(params, indices):
    batch_size, n, d = params.shape
    per_batch = indices.shape[1]
    flat_indices = indices.reshape(-1)
    batch_loc = torch.arange(batch_size).repeat_interleave(per_batch)
    within = torch.arange(per_batch).repeat(batch_size)
    idx = flat_indices[batch_loc * STRIDE + within]
    rows = batch_loc * n + idx
    return params.reshape(batch_size * n, d).index_select(0, rows).view(batch_size, per_batch, d)


if __name__ == "__main__":
    torch.manual_seed(0)
    params = torch.randn(3, 7, 4)
    indices = torch.randint(0, 7, (3, 5))
    RESULT = batch_gather(params, indices), torch.stack([params[b, indices[b]] for b in range(3)])
"""

DETECTIONS = """
import torch


def top_boxes(cls_scores, boxes, max_per_img):
    batch_size, num_queries, num_classes = cls_scores.shape
    scores, flat_ids = cls_scores.sigmoid().flatten(1).topk(max_per_img, dim=1)
    query = flat_ids // num_classes
    start = (torch.arange(batch_size) * STRIDE)[:, None]
    return boxes.view(-1, 4)[(query + start).view(-1)].view(batch_size, max_per_img, 4), query


if __name__ == "__main__":
    torch.manual_seed(0)
    cls_scores, boxes = torch.randn(2, 30, 8), torch.rand(2, 30, 4)
    got, query = top_boxes(cls_scores, boxes, 10)
    RESULT = got, torch.stack([boxes[b, query[b]] for b in range(2)])
"""

READS = ["flat[samples + offset]", "flat.index_select(0, offset + samples)", "torch.take(flat, samples + offset)"]


@pytest.mark.parametrize("read", READS)
def test_sampled_tokens_read_with_the_batch_as_stride_are_flagged(read, torch):
    program = SAMPLED.replace("STRIDE", "batch_size").replace("READ", read)
    assert "GL030" in [f.code for f in lint(program)]
    got, expected = run_program(program)
    assert not torch.allclose(got, expected)  # torch: rows after the first read another row's entries


@pytest.mark.parametrize("read", READS)
def test_sampled_tokens_read_with_the_row_length_as_stride_are_silent(read, torch):
    program = SAMPLED.replace("STRIDE", "probs.size(1)").replace("READ", read)
    assert lint(program) == []
    got, expected = run_program(program)
    assert torch.allclose(got, expected)


@pytest.mark.parametrize("program", [BATCHED, DETECTIONS], ids=["batched-gather", "detections"])
def test_row_numbers_with_another_grids_stride_are_flagged(program, torch):
    wrong = program.replace("STRIDE", "batch_size" if program is BATCHED else "max_per_img")
    assert "GL030" in [f.code for f in lint(wrong)]
    got, expected = run_program(wrong)
    assert not torch.allclose(got, expected)


@pytest.mark.parametrize("program", [BATCHED, DETECTIONS], ids=["batched-gather", "detections"])
def test_row_numbers_with_the_grids_row_length_are_silent(program, torch):
    right = program.replace("STRIDE", "per_batch" if program is BATCHED else "num_queries")
    assert lint(right) == []
    got, expected = run_program(right)
    assert torch.allclose(got, expected)


# Windows that overlap on purpose (an unfold by hand) and rows of a padded buffer wider than its columns: the
# stride differs from the columns' size, but the indexed tensor is no flattened [R, C] grid.
NOT_A_GRID = [
    ("overlapping-windows", """
import torch


def windows(signal, n, size, hop):
    starts = torch.arange(n) * hop
    return signal[starts[:, None] + torch.arange(size)]


if __name__ == "__main__":
    signal = torch.arange(20.0)
    RESULT = windows(signal, 4, 8, 4), torch.stack([signal[4 * i:4 * i + 8] for i in range(4)])
"""),
    ("padded-rows", """
import torch


def first_picks(scores, padded, width):
    batch = scores.shape[0]
    picks = scores.argmax(dim=1)
    return padded.view(-1)[torch.arange(batch) * width + picks], picks


if __name__ == "__main__":
    scores = torch.randn(3, 5)
    padded = torch.randn(3, 8)
    got, picks = first_picks(scores, padded, 8)
    RESULT = got, torch.stack([padded[b, picks[b]] for b in range(3)])
"""),
]


@pytest.mark.parametrize("program", [p for _, p in NOT_A_GRID], ids=[n for n, _ in NOT_A_GRID])
def test_strides_into_tensors_that_are_no_flattened_grid_are_silent(program, torch):
    assert "GL030" not in [f.code for f in lint(program)]
    got, expected = run_program(program)
    assert torch.allclose(got, expected)
