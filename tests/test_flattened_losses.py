"""GL007 through the tutorial spellings of a per-token loss: `logits.view(B * T, C)` with
`targets.view(B * T)` (names rebound in place, the hidden state rebound layer by layer) and einops'
`rearrange(logits, "b t v -> (b t) v")`; windows cut by a batch sampler reach the forward's loss."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

CHAR_MODEL = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

text = torch.randint(0, 40, (500,))


class CharDecoder(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.core = nn.LSTM(width, width, batch_first=True)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, chars, gold=None):
        h = self.tok(chars)
        h, _ = self.core(h)
        h = self.norm(h)
        scores = self.head(h)
        if gold is None:
            return scores
        {LOSS}
        return loss


def sample(span, rows):
    starts = torch.randint(len(text) - span - 1, (rows,))
    inputs = torch.stack([text[s:s + span] for s in starts])
    {TARGETS}
    return inputs, targets


if __name__ == "__main__":
    net = CharDecoder(40, 16)
    xs, ys = sample(12, 3)
    net(xs, ys).backward()
'''

VIEW = """n, t, v = scores.shape
        scores = scores.view(n * t, v)
        gold = gold.view(n * t)
        loss = F.cross_entropy(scores, gold)"""
EINOPS = 'loss = F.cross_entropy(rearrange(scores, "b t v -> (b t) v"), rearrange(gold, "b t -> (b t)"))'
SAME = "targets = torch.stack([text[s:s + span] for s in starts])"
NEXT = "targets = torch.stack([text[s + 1:s + span + 1] for s in starts])"


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("loss", [VIEW, EINOPS], ids=["view", "einops"])
@pytest.mark.parametrize("targets, fires", [(SAME, True), (NEXT, False)], ids=["same-window", "next-token"])
def test_sampled_windows_into_a_flattened_loss(loss, targets, fires):
    code = CHAR_MODEL.replace("{LOSS}", loss).replace("{TARGETS}", targets)
    found = _found(code)
    assert (found == [("GL007", _line_of(code, "F.cross_entropy("))]) == fires, found


def test_rebinding_through_a_subscript_is_not_followed(torch):
    """`h = h[:, 1:]` moves positions: what the logits are computed at is no longer known, and GL007 stays silent.
    The program then flattens 33 logit rows against 36 targets: `gold.view(n * t)` raises, which GL037 reports."""
    code = CHAR_MODEL.replace("{LOSS}", VIEW).replace("{TARGETS}", SAME).replace("h = self.norm(h)", "h = self.norm(h[:, 1:])")
    assert _found(code) == [("GL037", _line_of(code, "gold = gold.view(n * t)"))]
    with pytest.raises(RuntimeError, match=r"shape '\[33\]' is invalid for input of size 36"):
        run_snippet(code.replace("from einops import rearrange\n", ""))


def test_torch_view_of_b_times_t_keeps_the_position_pairing(torch):
    import torch.nn.functional as F
    torch.manual_seed(0)
    scores, gold = torch.randn(3, 5, 7), torch.randint(0, 7, (3, 5))
    n, t, v = scores.shape
    flat = F.cross_entropy(scores.view(n * t, v), gold.view(n * t))
    assert torch.allclose(flat, F.cross_entropy(scores.transpose(1, 2), gold))
    lp = scores.log_softmax(-1)
    assert torch.allclose(flat, -torch.stack([lp[b, i, gold[b, i]] for b in range(3) for i in range(5)]).mean())
