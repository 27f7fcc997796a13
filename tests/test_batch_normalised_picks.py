"""GL018 where the gathered dim is known to be the distribution's by the dim the softmax took: a softmax over
the batch (a dim named `B`) read by a gather along another dim picks shares of the batch, whatever the
index is called. A square [B, B] table normalised over either dim is a contrastive loss's, and stays silent."""

from .conftest import codes
from .snippets import call_run as run

PICK = """
import torch


def option_nll(scores, gt_index):
    # scores: (B, N); gt_index: (B,)
    log_probs = torch.log_softmax(scores, dim=0)
    return -log_probs.gather(1, gt_index.unsqueeze(1)).squeeze(1)


def run():
    torch.manual_seed(0)
    scores, gt = torch.randn(4, 10), torch.tensor([3, 0, 7, 9])
    wanted = torch.nn.functional.cross_entropy(scores, gt, reduction="none")
    return option_nll(scores, gt), wanted
"""

LAYER = """
import torch
from torch import nn


class OptionScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.normalise = nn.LogSoftmax(dim=0)

    def forward(self, scores, picked):
        # scores: (bsz, n_options); picked: (bsz,)
        return -self.normalise(scores).gather(1, picked.unsqueeze(1)).squeeze(1)


def run():
    torch.manual_seed(0)
    scores, gt = torch.randn(4, 10), torch.tensor([3, 0, 7, 9])
    wanted = torch.nn.functional.cross_entropy(scores, gt, reduction="none")
    return OptionScorer()(scores, gt), wanted
"""


def test_a_softmax_over_the_batch_read_along_the_options(torch):
    for program in (PICK, LAYER):
        assert codes(program) == ["GL018"]
        got, wanted = run(program)
        assert not torch.allclose(got, wanted)  # torch: shares of the batch, silently
        fixed = program.replace("dim=0", "dim=1")
        assert codes(fixed) == []
        got, wanted = run(fixed)
        assert torch.allclose(got, wanted)


SQUARE = """
import torch


def text_to_image_loss(logits, targets):
    # logits: (B, B), image rows by text columns
    log_probs = logits.log_softmax(dim=0)
    return -log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)


def run():
    torch.manual_seed(0)
    logits = torch.randn(5, 5)
    targets = torch.arange(5)
    wanted = torch.nn.functional.cross_entropy(logits.T, targets, reduction="none")
    return text_to_image_loss(logits, targets), wanted
"""


def test_a_square_similarity_table_normalised_over_its_rows_stays_silent(torch):
    assert codes(SQUARE) == []
    got, wanted = run(SQUARE)
    assert torch.allclose(got, wanted)  # the diagonal of a column-normalised table is the other direction's loss


def test_a_prefixed_batch_name_is_the_batch(torch):
    """`my_B` (or `eval_bsz`) names the batch as `B` does."""
    renamed = PICK.replace("(B, N)", "(my_B, N)").replace("(B,)", "(my_B,)")
    assert renamed != PICK
    assert codes(renamed) == ["GL018"]
