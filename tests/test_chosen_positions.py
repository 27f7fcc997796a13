"""GL018 reads positions an argmax / topk chose along the gathered dim as that dim's labels (pseudo-labels):
gathered from a softmax over another dim, each picked value is a share of that other dim."""
from .conftest import codes
from .snippets import call_run as run

PSEUDO_LABELS = """
import torch
import torch.nn.functional as F


def confidence(teacher_logits):
    \"\"\"
    Args:
        teacher_logits: (B, C, H, W) class scores per pixel.
    \"\"\"
    pseudo = teacher_logits.argmax(dim=1)  # (B, H, W)
    probs = F.softmax(teacher_logits, dim=-1)
    return probs.gather(1, pseudo.unsqueeze(1)).squeeze(1)


def run():
    torch.manual_seed(0)
    logits = torch.randn(2, 3, 4, 5) * 2
    expected = F.softmax(logits, dim=1).amax(dim=1)  # the chosen class's probability per pixel
    return torch.allclose(confidence(logits), expected)
"""


def test_pseudo_labels_gathered_from_a_softmax_over_another_dim_are_reported(torch):
    assert codes(PSEUDO_LABELS) == ["GL018"]
    assert run(PSEUDO_LABELS) is False  # torch: shares of the width, not class probabilities
    fixed = PSEUDO_LABELS.replace("F.softmax(teacher_logits, dim=-1)", "F.softmax(teacher_logits, dim=1)")
    assert codes(fixed) == []
    assert run(fixed) is True


def test_positions_chosen_along_the_normalised_dim_stay_silent(torch):
    program = """
import torch
import torch.nn.functional as F


def top_share(scores):
    \"\"\"
    Args:
        scores: (B, T, V)
    \"\"\"
    probs = F.softmax(scores, dim=-1)
    best = scores.topk(2, dim=-1).indices
    return probs.gather(-1, best)


def run():
    scores = torch.randn(2, 3, 6)
    return torch.allclose(top_share(scores), F.softmax(scores, -1).topk(2, dim=-1).values)
"""
    assert codes(program) == []
    assert run(program) is True
