"""A language model of n-grams (a class named so, `BigramLM`, built of a table and position-wise layers alone:
`self.table[ids]`, an embedding and a head) is causal: its output at t has read token t only, so log-probs
gathered at the ids' own positions score each token under the prediction made from itself (GL007). The same
layers under another name may be a token autoencoder, which scores each position legitimately, and a model that
mixes positions (a running sum) is no evidence either way. Each claim runs in torch."""

from .conftest import lint
from .snippets import run_snippet

BIGRAM = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Bigram(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.emb = nn.Embedding(vocab, 32)
        self.head = nn.Linear(32, vocab)

    def forward(self, ids):
        return F.log_softmax(self.head(self.emb(FORWARD)), dim=-1)

def score(model, ids):
    lp = model(ids)
    return lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)

if __name__ == "__main__":
    torch.manual_seed(0)
    model = Bigram(50)
    ids = torch.randint(0, 50, (2, 9))
    OUT = score(model, ids)
    changed = ids.clone()
    changed[:, 5] = (changed[:, 5] + 1) % 50
    SAME_BEFORE = torch.equal(model(ids)[:, :5], model(changed)[:, :5])
"""


def test_a_position_wise_model_scored_at_its_own_positions_is_reported(torch):
    program = BIGRAM.replace("FORWARD", "ids")
    assert [(f.code, f.line) for f in lint(program)] == [("GL007", 17)]
    scope = run_snippet(program)
    assert scope["SAME_BEFORE"]  # changing token 5 leaves every earlier output as it was: causal


def test_a_model_that_mixes_positions_is_not(torch):
    program = BIGRAM.replace("FORWARD", "ids).cumsum(1")
    assert lint(program) == []
    run_snippet(program)


def test_the_same_layers_named_as_an_autoencoder_are_not(torch):
    program = BIGRAM.replace("FORWARD", "ids").replace("Bigram", "TokenAutoencoder")
    assert lint(program) == []
    run_snippet(program)


def test_the_scoring_function_as_a_static_method_is_reported_too(torch):
    """The same program with `score` moved into a class as a @staticmethod, called as `Ops.score(model, ids)`:
    the model's class is passed to it as it was to the function."""
    program = BIGRAM.replace("FORWARD", "ids").replace(
        "def score(model, ids):\n    lp = model(ids)\n    return lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)",
        "class Ops:\n    @staticmethod\n    def score(model, ids):\n        lp = model(ids)\n"
        "        return lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)").replace("OUT = score(", "OUT = Ops.score(")
    assert "Ops.score(" in program
    assert [(f.code, f.line) for f in lint(program)] == [("GL007", 19)]
    run_snippet(program)
