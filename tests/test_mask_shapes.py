"""GL001 at a bool-mask subscript: a mask must have the shape of the dims of the tensor it covers (from its place
in the key, after plain slices). A mask of other sizes, or of more dims than are left, makes torch raise
IndexError; each flagged program does, and each silent one runs."""
import pytest

from .conftest import lint
from .snippets import run_snippet

WRONG = [
    ("flat-ious-on-an-anchor-grid-write", """
import torch

def suppress(conf_mask, ious, thresh):
    conf_mask[ious > thresh] = 0
    return conf_mask

if __name__ == "__main__":
    suppress(torch.ones(3, 4, 5), torch.rand(60), 0.5)
""", 5),
    ("per-image-mask-on-flattened-losses", """
import torch

def mine(loss_c, conf_t):
    pos = conf_t > 0
    loss_c[pos] = 0
    return loss_c

if __name__ == "__main__":
    mine(torch.rand(100, 1), torch.randint(0, 3, (2, 50)))
""", 6),
    ("column-mask-on-a-vector-read", """
import torch

def same_label_edges(scores, y, row, col):
    return scores[y[row] == y[col]]

if __name__ == "__main__":
    y = torch.randint(0, 3, (10, 1))
    same_label_edges(torch.rand(40), y, torch.randint(0, 10, (40,)), torch.randint(0, 10, (40,)))
""", 5),
    ("mask-after-a-slice-missing-the-cls-slot", """
import torch

def visible(x, mask):
    return x[:, ~mask]

if __name__ == "__main__":
    visible(torch.rand(2, 65, 8), torch.rand(64) > 0.5)
""", 5),
]

RIGHT = [
    ("matching-mask", """
import torch

def suppress(conf_mask, ious, thresh):
    conf_mask[ious.view(conf_mask.shape) > thresh] = 0
    return conf_mask

if __name__ == "__main__":
    suppress(torch.ones(3, 4, 5), torch.rand(60), 0.5)
"""),
    ("mask-of-the-leading-dims", """
import torch

def keep_rows(x, lengths):
    valid = torch.arange(x.size(1))[None, :] < lengths[:, None]
    return x[valid]

if __name__ == "__main__":
    keep_rows(torch.rand(2, 6, 8), torch.tensor([3, 6]))
"""),
    ("mask-after-an-index-tensor", """
import torch

def pick(x, rows, cols_mask):
    return x[rows[:, None], cols_mask.nonzero().squeeze(1)]

if __name__ == "__main__":
    pick(torch.rand(5, 7), torch.tensor([0, 2]), torch.rand(7) > 0.3)
"""),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in WRONG], ids=[n for n, _, _ in WRONG])
def test_masks_of_other_dims_are_flagged_and_torch_raises(code, line, torch):
    assert ("GL001", line) in [(f.code, f.line) for f in lint(code)]
    with pytest.raises(IndexError, match="mask|too many indices"):
        run_snippet(code)


@pytest.mark.parametrize("code", [c for _, c in RIGHT], ids=[n for n, _ in RIGHT])
def test_masks_of_the_dims_they_cover_are_silent(code, torch):
    assert [f for f in lint(code) if f.code == "GL001"] == []
    run_snippet(code)
