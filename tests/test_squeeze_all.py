"""GL006's reverse form: `.squeeze()` with no dim on a gathered result drops every size-1 dim. A dim the input has
of size 1 too (a batch of one token) is a dim of the data, and dropping it gives a 0-d tensor where a vector was
meant. A size 1 that only the index has (`ws.view(B, 1, 1)` into a [B, G, F] input) is the index's: squeezing it
is what the code means to do, and whether the index should be wider is another question (GL005)."""
import pytest

from .conftest import lint
from .snippets import run_snippet

ONE_TOKEN = """
import torch

def copy_loss(scores, align):
    copy_probs = scores.gather(1, align.unsqueeze(1)).squeeze()
    copy_probs[align == 0] = 0
    return copy_probs

if __name__ == "__main__":
    OUT = copy_loss(torch.rand(1, 9), torch.tensor([0]))
"""


def test_a_batch_of_one_squeezed_away_is_reported(torch):
    found = [(f.code, f.line) for f in lint(ONE_TOKEN)]
    assert ("GL006", 5) in found, found
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        run_snippet(ONE_TOKEN)


MIXTURE = """
import torch
from torch.distributions import Categorical

def sample(w, sigma):
    batch = []
    for i in range(w.shape[1]):
        w_i, sigma_i = w[:, i], sigma[:, i]
        ws = Categorical(w_i).sample().view(w_i.size(0), 1, 1)
        noise = torch.randn(sigma_i.size(2), sigma_i.size(0))
        batch.append((noise * sigma_i.gather(1, ws).squeeze()).transpose(0, 1))
    return torch.stack(batch, dim=1)

if __name__ == "__main__":
    OUT = sample(torch.rand(3, 4, 20).softmax(-1), torch.rand(3, 4, 20, 8))
"""


def test_a_size_one_only_the_index_has_is_not_reported(torch):
    assert [f for f in lint(MIXTURE) if f.code == "GL006"] == []
    assert tuple(run_snippet(MIXTURE)["OUT"].shape) == (3, 4, 8)
