"""GL007 through a model handed to a function: a causal LM class of the file whose forward scores its
labels at the logits' own positions, built in a driver and passed to an evaluation or training function
(`evaluate(model, batches)`) that calls it with `labels=ids`. A class named `...CausalLM`-like
(`CausalCharLM`, `TinyCausalLanguageModel`) says it is causal, as `...ForCausalLM` does."""
import pytest

from .conftest import lint
from .snippets import run_snippet

HANDED = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalCharLM(nn.Module):
    def __init__(self, n_chars, width):
        super().__init__()
        self.n_chars = n_chars
        self.table = nn.Embedding(n_chars, width)
        self.mix = nn.Linear(width, width)
        self.head = nn.Linear(width, n_chars)

    def forward(self, chars, targets=None):
        running = self.table(chars).cumsum(1)
        scores = self.head(torch.relu(self.mix(running)))
        if targets is None:
            return scores
        return F.cross_entropy(scores.reshape(-1, self.n_chars), targets.reshape(-1))


def run_epoch(net, stream, optimizer=None):
    total = 0.0
    for chunk in stream:
        loss = net(chunk, targets=chunk)
        total += loss.item()
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    lm = CausalCharLM(12, 6)
    data = [torch.randint(0, 12, (3, 9)) for _ in range(2)]
    result = run_epoch(lm, data)
'''

SCORING_LINE = "        return F.cross_entropy(scores.reshape(-1, self.n_chars), targets.reshape(-1))"


def test_model_handed_to_a_function_is_reported_at_its_loss():
    found = [f for f in lint(HANDED) if f.code == "GL007"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(HANDED)]
    assert found[0].line == HANDED.splitlines().index(SCORING_LINE) + 1
    assert "at its own positions" in found[0].message and "CausalCharLM" in found[0].message


@pytest.mark.parametrize("code", [
    # the caller cuts the targets one ahead of the inputs
    HANDED.replace("loss = net(chunk, targets=chunk)", "loss = net(chunk[:, :-1], targets=chunk[:, 1:])"),
    # a class whose name does not say it is causal, with no causal layer: a masked or per-position model
    HANDED.replace("CausalCharLM", "CharScorer"),
    HANDED.replace("CausalCharLM", "NonCausalCharLM"),
    # forward shifts itself
    HANDED.replace(SCORING_LINE, "        return F.cross_entropy(scores[:, :-1].reshape(-1, self.n_chars), "
                                 "targets[:, 1:].reshape(-1))"),
], ids=["caller-shifts", "no-causal-evidence", "non-causal-name", "forward-shifts"])
def test_aligned_or_not_causal_stays_silent(code):
    assert "GL007" not in [f.code for f in lint(code)]


def test_torch_the_model_is_causal_and_the_loss_scores_each_token_by_its_own_position(torch):
    """The finding's claim, run: the logits at t do not depend on later tokens (a causal model), so the
    loss at t scores the very token the model read there instead of the next one."""
    scope = run_snippet(HANDED)
    lm, chunk = scope["lm"], scope["data"][0]
    changed = chunk.clone()
    changed[:, -1] = (changed[:, -1] + 1) % 12
    assert torch.allclose(lm(chunk)[:, :-1], lm(changed)[:, :-1])  # causal: position t reads tokens <= t
    scores = lm(chunk)
    own = torch.nn.functional.cross_entropy(scores.reshape(-1, 12), chunk.reshape(-1))
    assert torch.isclose(own, lm(chunk, targets=chunk))
