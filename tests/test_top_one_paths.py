"""GL023: a top-1 path picks with max/argmax (dropping the dim) where the other path keeps it with topk.

Each program runs in torch first (the oracle: the k == 1 path returns one dim fewer than the topk
path, so the same code after it works along another dim), then through the linter: reported at the
top-1 pick; silent with `keepdim=True`, and when the two picks are not the same value reaching the
same place.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

ROUTER_MODULE = """
import torch
import torch.nn as nn


class TopKGate(nn.Module):
    def __init__(self, d_model, n_experts, k):
        super().__init__()
        self.k = k
        self.proj = nn.Linear(d_model, n_experts)

    def select(self, probs):
        if self.k == 1:
            return probs.max(dim=1{keep})  # expect
        return probs.topk(self.k, dim=1)

    def forward(self, tokens):
        gate, expert = self.select(self.proj(tokens).softmax(dim=1))
        return gate / gate.sum(dim=-1, keepdim=True)


if __name__ == "__main__":
    tokens = torch.randn(5, 8)
    one, two = TopKGate(8, 4, 1), TopKGate(8, 4, 2)
    two.proj = one.proj
    RESULT = one.select(one.proj(tokens).softmax(1))[0].dim(), two.select(two.proj(tokens).softmax(1))[0].dim()
"""

BRANCH_ASSIGN_HELPER = """
import torch


def best_actions(q_values, n_best):
    if n_best == 1:
        scores, actions = torch.max(q_values, -1{keep})  # expect
    else:
        scores, actions = torch.topk(q_values, n_best)
    return scores, actions


if __name__ == "__main__":
    q = torch.randn(6, 3)
    RESULT = best_actions(q, 1)[1].dim(), best_actions(q, 2)[1].dim()
"""

CONDITIONAL_INDICES = """
import torch


def next_tokens(logits, greedy, beams):
    return logits.argmax(dim=-1{keep}) if greedy else logits.topk(beams, dim=-1).indices  # expect


if __name__ == "__main__":
    logits = torch.randn(2, 10)
    RESULT = next_tokens(logits, True, 1).dim(), next_tokens(logits, False, 1).dim()
"""

GREEDY_OR_SAMPLED = """
import torch
import torch.nn.functional as F


def next_token(scores, sample, temperature=0.7):
    if sample:
        probs = F.softmax(scores / temperature, dim=-1)
        token = torch.multinomial(probs, num_samples=1)
    else:
        token = scores.argmax(dim=-1{keep})  # expect
    return token


if __name__ == "__main__":
    torch.manual_seed(0)
    scores = torch.randn(3, 7)
    RESULT = next_token(scores, False).dim(), next_token(scores, True).dim()
"""

EARLY_RETURN_UNPACKED = """
import torch


def strongest(similarity, n):
    if n == 1:
        value, where = similarity.max(1{keep})  # expect
        return value, where
    return similarity.topk(n, 1)


if __name__ == "__main__":
    sim = torch.randn(4, 9)
    RESULT = strongest(sim, 1)[0].dim(), strongest(sim, 3)[0].dim()
"""

STYLES = {"early-return-after-unpacking": EARLY_RETURN_UNPACKED, "router-module-method": ROUTER_MODULE, "if-else-assignment-torch-form": BRANCH_ASSIGN_HELPER,
          "conditional-expression-argmax": CONDITIONAL_INDICES, "greedy-or-sampled-token": GREEDY_OR_SAMPLED}


def _program(template: str, keep: str) -> str:
    return textwrap.dedent(template).replace("{keep}", keep)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_top_one_pick_without_its_dim_is_reported_and_torch_gives_another_rank(style, torch):
    bad = _program(STYLES[style], "")
    found = [f for f in lint(bad) if f.code == "GL023"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "keepdim=True" in (found[0].help or "")
    one, k = run_program(bad)
    assert one == k - 1  # torch: the top-1 path lost the picked dim


@pytest.mark.parametrize("style", sorted(STYLES))
def test_keepdim_is_silent_and_torch_gives_the_same_rank(style, torch):
    good = _program(STYLES[style], ", keepdim=True")
    assert lint(good) == []
    one, k = run_program(good)
    assert one == k


@pytest.mark.parametrize("code", [
    # another dim: not the same pick
    """
    def pick(x, k):
        if k == 1:
            return x.max(dim=0)
        return x.topk(k, dim=1)
    """,
    # another tensor
    """
    def pick(x, y, k):
        if k == 1:
            return y.max(dim=-1)
        return x.topk(k, dim=-1)
    """,
    # the top-k is reduced before it is returned: one value per row on both paths
    """
    def pool(x, k):
        if k == 1:
            return x.max(dim=1).values
        return x.topk(k, dim=1).values.mean(1)
    """,
    # values on one path, indices on the other: different results
    """
    def pick(x, k):
        if k == 1:
            return x.max(-1).values
        return x.topk(k).indices
    """,
    # the smallest on one path, the largest on the other
    """
    def pick(x, k):
        if k == 1:
            return x.min(-1)
        return x.topk(k, -1)
    """,
    # both computed in one statement, one after the other: not two paths
    """
    def both(x, k):
        best, top = x.max(-1), x.topk(k, -1)
        return best, top
    """,
    # the sample squeezed to one token per row: both paths give [B]
    """
    import torch
    def next_token(logits, sample):
        if sample:
            probs = logits.softmax(dim=-1)
            tok = torch.multinomial(probs, 1).squeeze(1)
        else:
            tok = logits.argmax(dim=-1)
        return tok
    """,
    # sampled from other scores than the greedy pick's
    """
    import torch
    def next_token(logits, prior, sample):
        if sample:
            tok = torch.multinomial(prior, 1)
        else:
            tok = logits.argmax(dim=-1)
        return tok
    """,
    # assigned in sequence, not in two arms
    """
    def pick(x, k):
        w, i = x.max(-1)
        log(w)
        w, i = x.topk(k, -1)
        return w, i
    """,
])
def test_picks_that_are_not_the_same_result_on_two_paths_stay_silent(code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL023"] == []


# eagle-llm's draft sampler: the greedy arm puts the dim back on its next line, so both arms hand on
# [B, 1]; without that line the arms differ in rank, as torch shows
GREEDY_THEN_COLUMN = """
import torch


def pick_next_token(prob, logits_processor=None):
    # prob: [batch, vocab]
    if logits_processor is not None:
        token = torch.multinomial(prob, 1)
    else:
        token = torch.argmax(prob, dim=-1)
        token = token[:, None]
    return token


prob = torch.softmax(torch.randn(2, 50), dim=-1)
shapes = {tuple(pick_next_token(prob).shape), tuple(pick_next_token(prob, "sample").shape)}
"""


def test_a_pick_whose_dim_is_put_back_in_its_arm_is_silent(torch):
    assert [f for f in lint(GREEDY_THEN_COLUMN) if f.code == "GL023"] == []
    scope: dict = {}
    exec(textwrap.dedent(GREEDY_THEN_COLUMN), scope)
    assert scope["shapes"] == {(2, 1)}


def test_without_the_dim_put_back_the_arms_differ_and_it_is_reported(torch):
    code = GREEDY_THEN_COLUMN.replace("        token = token[:, None]\n", "")
    assert [(f.line, f.code) for f in lint(code)] == [(10, "GL023")]
    scope: dict = {}
    exec(textwrap.dedent(code), scope)
    assert scope["shapes"] == {(2,), (2, 1)}
