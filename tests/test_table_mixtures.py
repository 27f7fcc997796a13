"""GL018 for soft lookups: a softmax mixing an nn.Embedding table's rows along another dim than it normalised.

Each program runs in torch first (the oracle: a loop that mixes each position's rows with weights
normalised over the table's entries gives another result), then through the linter: reported at the
softmax, or at the call of the helper whose softmax it is (with the dim to pass); silent when the
softmax runs over the dim that meets the table's rows, when the table is not an embedding's weight
(a talking-heads mix of attention heads) and when the normalised dim is summed over.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

SOFT_CODES_MODULE = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftQuantizer(nn.Module):
    def __init__(self, n_codes, dim):
        super().__init__()
        self.codebook = nn.Embedding(n_codes, dim)

    def forward(self, scores):
        # scores: [B, T, K], one score per code at every step
        weights = F.softmax(scores, dim={dim})  # expect
        return weights @ self.codebook.weight


if __name__ == "__main__":
    torch.manual_seed(0)
    q = SoftQuantizer(5, 3)
    scores = torch.randn(2, 4, 5)
    out = q(scores)
    reference = torch.stack([torch.stack([sum(w * q.codebook.weight[k] for k, w in enumerate(row.softmax(0)))
                                          for row in seq]) for seq in scores])
    RESULT = torch.allclose(out, reference, atol=1e-5)
"""

HELPER_DEFAULT_DIM = """
import torch
import torch.nn as nn


def relaxed_assign(logits, temperature=0.5, dim=-1):
    return (logits / temperature).softmax(dim)


class CodeMixer(nn.Module):
    def __init__(self, channels, n_codes, width):
        super().__init__()
        self.to_codes = nn.Conv2d(channels, n_codes, 1)
        self.table = nn.Embedding(n_codes, width)

    def forward(self, feats):
        logits = self.to_codes(feats)  # (b, n_codes, h, w)
        assign = relaxed_assign(logits{dim})  # expect
        return torch.einsum("bnhw,nd->bdhw", assign, self.table.weight)


if __name__ == "__main__":
    torch.manual_seed(0)
    mixer = CodeMixer(3, 4, 2)
    feats = torch.randn(1, 3, 5, 6)
    out = mixer(feats)
    weights = (mixer.to_codes(feats) / 0.5).softmax(1)
    reference = torch.einsum("bnhw,nd->bdhw", weights, mixer.table.weight)
    RESULT = torch.allclose(out, reference, atol=1e-5)
"""

TORCH_GUMBEL_CODES = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class DiscreteCodes(nn.Module):
    def __init__(self, channels=3, n_codes=6, code_dim=4):
        super().__init__()
        self.to_logits = nn.Conv2d(channels, n_codes, 1)
        self.codes = nn.Embedding(n_codes, code_dim)

    def forward(self, images):
        logits = self.to_logits(images)  # [b, n, h, w]
        one_hot = F.gumbel_softmax(logits, tau=0.8, hard=True{dim})  # expect
        return torch.einsum("bnhw,nd->bdhw", one_hot, self.codes.weight), one_hot


if __name__ == "__main__":
    torch.manual_seed(0)
    _, one_hot = DiscreteCodes()(torch.randn(2, 3, 5, 7))
    RESULT = bool((one_hot.sum(1) == 1).all())  # one code per position
"""

STYLES = {"softmax-then-matmul-in-forward": (SOFT_CODES_MODULE, "1", "-1"),
          "helper-default-dim-then-einsum": (HELPER_DEFAULT_DIM, "", ", dim=1"),
          "torch-gumbel-softmax-default-dim": (TORCH_GUMBEL_CODES, "", ", dim=1")}


def _program(template: str, dim: str) -> str:
    return textwrap.dedent(template).replace("{dim}", dim)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_softmax_mixing_table_rows_along_another_dim_is_reported_and_torch_disagrees(style, torch):
    template, bad_dim, _ = STYLES[style]
    bad = _program(template, bad_dim)
    found = [f for f in lint(bad) if f.code == "GL018"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "embedding table" in found[0].message
    assert run_program(bad) is False  # torch: not the mixture of rows weighted over the table's entries


def test_the_helper_call_is_told_which_dim_to_pass():
    bad = _program(HELPER_DEFAULT_DIM, "")
    found = [f for f in lint(bad) if f.code == "GL018"]
    assert "pass dim=1" in found[0].message


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_softmax_over_the_table_rows_dim_is_silent_and_torch_agrees(style, torch):
    template, _, good_dim = STYLES[style]
    good = _program(template, good_dim)
    assert lint(good) == []
    assert run_program(good) is True


@pytest.mark.parametrize("code", [
    # talking heads: attention probabilities mixed across heads by a learned matrix, on purpose
    '''
    import torch
    import torch.nn as nn
    class TalkingHeads(nn.Module):
        def __init__(self, heads):
            super().__init__()
            self.mix = nn.Parameter(torch.eye(heads))
        def forward(self, scores):
            # scores: [B, H, Q, K]
            probs = scores.softmax(dim=-1)
            return torch.einsum("bhqk,hg->bgqk", probs, self.mix)
    ''',
    # the normalised dim is the one that meets the table's rows
    '''
    import torch
    import torch.nn as nn
    class Lookup(nn.Module):
        def __init__(self, v, d):
            super().__init__()
            self.emb = nn.Embedding(v, d)
        def forward(self, logits):
            # logits: [B, T, V]
            return torch.einsum("btv,vd->btd", logits.softmax(-1), self.emb.weight)
    ''',
    # the normalised dim is summed over too (an expectation), not kept
    '''
    import torch
    import torch.nn as nn
    class Pool(nn.Module):
        def __init__(self, v, d):
            super().__init__()
            self.emb = nn.Embedding(v, d)
        def forward(self, scores):
            # scores: [B, V, T]
            return torch.einsum("bvt,vd->bd", scores.softmax(-1), self.emb.weight)
    ''',
])
def test_other_mixtures_stay_silent(code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL018"] == []
