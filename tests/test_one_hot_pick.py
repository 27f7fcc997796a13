"""GL020: a per-row pick by one-hot mask summed with no dim, whose total then meets a per-row tensor
(static/one_hot_pick.py).

Every snippet binds `out` (what the code computes) and `expected` (what its author meant, by a plain
loop). Flagged snippets also bind `fixed` (the sum over the class dim only); torch must give
`out != expected` and `fixed == expected`. Silent snippets are right in torch.
"""

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("plain-function-comment-shapes", """
        import torch
        import torch.nn.functional as F

        def td_errors(q_values, actions, target_q, n_actions):
            # q_values: [B, A], actions: [B], target_q: [B]
            mask = F.one_hot(actions, n_actions).float()  # [B, A]
            q = torch.sum(q_values * mask)
            return target_q - q

        q_values, actions, target_q = torch.randn(6, 3), torch.randint(0, 3, (6,)), torch.randn(6)
        out = td_errors(q_values, actions, target_q, 3)
        expected = torch.stack([target_q[b] - q_values[b, actions[b]] for b in range(6)])
        fixed = target_q - (q_values * F.one_hot(actions, 3).float()).sum(dim=1)
    """, 8),
    ("module-forward-eye-mask-and-mse-loss", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Critic(nn.Module):
            def __init__(self, obs_dim, n_actions):
                super().__init__()
                self.n_actions = n_actions
                self.head = nn.Linear(obs_dim, n_actions)

            def forward(self, obs):
                return self.head(obs)

        def critic_loss(critic, obs, action, returns):
            # obs: [B, obs_dim], action: [B], returns: [B]
            all_q = critic(obs)
            chosen = (all_q * torch.eye(critic.n_actions)[action]).sum()
            return F.mse_loss(chosen, returns, reduction="none")

        critic = Critic(5, 4)
        obs, action, returns = torch.randn(7, 5), torch.randint(0, 4, (7,)), torch.randn(7)
        out = critic_loss(critic, obs, action, returns).detach()
        q = critic(obs).detach()
        expected = torch.stack([(q[b, action[b]] - returns[b]) ** 2 for b in range(7)])
        fixed = F.mse_loss((q * torch.eye(4)[action]).sum(dim=1), returns, reduction="none")
    """, 18),
    ("jaxtyping-helper-method-sum", """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        from torch import Tensor

        def advantage_of_taken(
            q: Float[Tensor, "batch actions"], a: Int[Tensor, "batch"], v: Float[Tensor, "batch"]
        ) -> Float[Tensor, "batch"]:
            taken = (q * F.one_hot(a, q.shape[1]).to(q.dtype)).sum()
            return taken - v

        q, a, v = torch.randn(5, 4), torch.randint(0, 4, (5,)), torch.randn(5)
        out = advantage_of_taken(q, a, v)
        expected = torch.stack([q[b, a[b]] - v[b] for b in range(5)])
        fixed = (q * F.one_hot(a, 4).to(q.dtype)).sum(dim=1) - v
    """, 10),
    ("docstring-shapes-product-named-first", """
        import torch
        import torch.nn.functional as F

        def picked_log_probs(log_probs, labels, weights):
            \"\"\"Weighted log-likelihood of each example.

            Args:
                log_probs: (N, C) log-probabilities.
                labels: (N,) gold classes.
                weights: (N,) example weights.
            \"\"\"
            selected = log_probs * F.one_hot(labels, log_probs.size(1))
            picked = selected.sum()
            return weights * picked

        log_probs = torch.randn(6, 3).log_softmax(-1)
        labels, weights = torch.randint(0, 3, (6,)), torch.rand(6)
        out = picked_log_probs(log_probs, labels, weights)
        expected = torch.stack([weights[i] * log_probs[i, labels[i]] for i in range(6)])
        fixed = weights * (log_probs * F.one_hot(labels, 3)).sum(dim=1)
    """, 14),
    ("scatter-made-one-hot-in-a-method", """
        import torch

        class DQNLoss:
            def __call__(self, q_values, actions, targets):
                # q_values: [N, A], actions: [N], targets: [N]
                picked = torch.zeros_like(q_values).scatter_(1, actions.unsqueeze(1), 1.0)
                q_taken = (q_values * picked).sum()
                return (targets - q_taken).pow(2)

        q_values, actions, targets = torch.randn(5, 3), torch.randint(0, 3, (5,)), torch.randn(5)
        out = DQNLoss()(q_values, actions, targets)
        expected = torch.stack([(targets[i] - q_values[i, actions[i]]) ** 2 for i in range(5)])
        mask = torch.zeros_like(q_values).scatter_(1, actions.unsqueeze(1), 1.0)
        fixed = (targets - (q_values * mask).sum(dim=1)).pow(2)
    """, 8),
    ("script-top-level-names", """
        import torch
        import torch.nn.functional as F

        q_values = torch.randn(8, 3)  # [B, A]
        actions = torch.randint(0, 3, (8,))
        target_q = torch.randn(8)  # [B]
        mask = F.one_hot(actions, 3).float()
        q = torch.sum(q_values * mask)
        out = (target_q - q) ** 2
        expected = torch.stack([(target_q[b] - q_values[b, actions[b]]) ** 2 for b in range(8)])
        fixed = (target_q - (q_values * mask).sum(dim=1)) ** 2
    """, 9),
]

SILENT = [
    ("one-hot-sum-as-a-loss-total", """
        import torch
        import torch.nn.functional as F

        logp = torch.randn(6, 3).log_softmax(-1)  # [B, C]
        y = torch.randint(0, 3, (6,))
        out = -(logp * F.one_hot(y, 3)).sum() / 6
        expected = -torch.stack([logp[b, y[b]] for b in range(6)]).mean()
    """),
    ("one-hot-pick-summed-over-classes", """
        import torch
        import torch.nn.functional as F

        q_values = torch.randn(6, 3)  # [B, A]
        actions = torch.randint(0, 3, (6,))
        target_q = torch.randn(6)  # [B]
        q = torch.sum(q_values * F.one_hot(actions, 3), dim=1)
        out = target_q - q
        expected = torch.stack([target_q[b] - q_values[b, actions[b]] for b in range(6)])
    """),
    ("one-hot-total-divided-by-a-count", """
        import torch
        import torch.nn.functional as F

        counts = torch.rand(5, 4)  # [B, K]
        k = torch.randint(0, 4, (5,))
        total = torch.sum(counts * F.one_hot(k, 4))
        out = total / torch.tensor(5.0)
        expected = sum(counts[b, k[b]] for b in range(5)) / 5
    """),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_one_hot_pick_summed_over_the_batch_is_flagged_at_the_sum(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL020", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_gives_every_row_the_batch_total_and_the_fix_is_right(code, line, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"].float(), scope["expected"].float(), atol=1e-4)
    assert torch.allclose(scope["fixed"].float(), scope["expected"].float(), atol=1e-5)


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_one_hot_sums_meant_as_totals_or_per_row_are_silent(code):
    assert [f for f in lint(code) if f.code == "GL020"] == []


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_silent_snippets_are_right_in_torch(code, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert torch.allclose(scope["out"].float(), scope["expected"].float(), atol=1e-5)


def test_message_names_the_sum_the_shapes_the_meeting_and_the_fix():
    code = dict((n, c) for n, c, _ in FLAGGED)["plain-function-comment-shapes"]
    message = next(f.message for f in lint(code) if f.code == "GL020")
    assert "torch.sum(q_values * mask)" in message and "[B, A]" in message
    assert "`target_q` [B] at line 9" in message and "silently" in message
    assert "(q_values * mask).sum(dim=-1)" in message


def test_the_pick_text_test_answers_as_its_regex_did():
    """_pick_spelled reads each alternative from its literal; the one regex it replaced is the oracle."""
    import random
    import re
    from gather_lint.static.one_hot_pick import _pick_spelled
    regex = re.compile(r"torch\.sum\(\s*[^(),]*\*[^(),]*\)|\([^()]*\*[^()]*\)\.sum\(\)"
                       r"|\*[^\n#]*(?:one_hot|eye\()|(?:one_hot|eye\()[^\n#]*\*")
    pieces = ["(", ")", "*", "#", "\n", "one_hot", "eye(", ".sum()", "torch.sum(", "a", " ", ","]
    rng = random.Random(7)
    found = 0
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        want = regex.search(text) is not None
        assert _pick_spelled(text) == want, repr(text)
        found += want
    assert found > 1000
