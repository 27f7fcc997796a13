"""GL006 beyond arithmetic: the kept singleton survives unary ops and casts, and broadcasts in losses,
torch.where and masked_select; reported on the gather, where the squeeze belongs."""
import warnings

import pytest

from .conftest import codes, lint

HEADER = """
import torch
import torch.nn as nn
import torch.nn.functional as F
def f(scores, picks, weight, cond):
    # scores: [N, K]  picks: [N]  weight: [N]  cond: [N]
    chosen = scores.gather(1, picks.unsqueeze(1))
    out = {use}
    return out
"""


@pytest.mark.parametrize("use, fires", [
    ("-torch.log(chosen) * weight", True),
    ("chosen.exp().float() * 0.5 - weight", True),
    ("torch.exp(-chosen) / weight", True),
    ("F.mse_loss(chosen, weight)", True),
    ("F.smooth_l1_loss(input=chosen, target=weight, reduction='none')", True),
    ("F.huber_loss(chosen, weight)", True),
    ("nn.L1Loss()(chosen, weight)", True),
    ("torch.where(cond > 0, chosen, weight)", True),
    ("torch.masked_select(chosen, cond > 0)", True),
    ("chosen.masked_select(cond > 0)", True),
    ("torch.mul(chosen, weight)", True),
    ("torch.min(torch.clamp(chosen, 0.8, 1.2), weight)", True),
    ("torch.maximum(weight, chosen)", True),
    ("torch.max(chosen, 1)", False),  # a reduction over dim 1, not a second tensor
    ("torch.mul(chosen, 2.0)", False),
    ("F.mse_loss(chosen.squeeze(1), weight)", False),
    ("F.mse_loss(chosen, weight.unsqueeze(1))", False),
    ("F.cross_entropy(scores, picks)", False),
    ("torch.where(cond.unsqueeze(1) > 0, chosen, 0.0)", False),
])
def test_kept_singleton_reaches(use, fires):
    assert (codes(HEADER.format(use=use)) == ["GL006"]) == fires, use


def test_take_along_dim_keeps_the_singleton_too(torch):
    code = """
    import torch
    def f(logp, actions, adv):
        # logp: [B, A]  actions: [B]  adv: [B]
        taken = torch.take_along_dim(logp, actions.unsqueeze(-1), dim=-1)
        return taken * adv
    """
    assert codes(code) == ["GL006"]
    taken = torch.take_along_dim(torch.randn(4, 3), torch.zeros(4, 1, dtype=torch.long), dim=-1)
    assert (taken * torch.randn(4)).shape == (4, 4)


def test_reported_on_the_gather_with_the_line_where_it_broadcasts():
    code = """
    import torch
    def f(scores, picks, weight):
        # scores: [N, K]  picks: [N]  weight: [N]
        chosen = scores.gather(1, picks.unsqueeze(1))
        scaled = -torch.log(chosen)
        return scaled * weight
    """
    [finding] = lint(code)
    assert (finding.line, finding.code) == (5, "GL006")
    assert "at line 7" in finding.message and "always [N, N]" in finding.message


def test_loss_module_attribute_from_init():
    code = """
    import torch
    import torch.nn as nn
    class Critic(nn.Module):
        def __init__(self):
            super().__init__()
            self.criterion = nn.MSELoss()
        def loss(self, q, actions, returns):
            # q: (batch, n_actions)  actions: (batch,)  returns: (batch,)
            q_taken = q.gather(1, actions.unsqueeze(1))
            return self.criterion(q_taken, returns)
    """
    assert codes(code) == ["GL006"]


def test_what_torch_does_with_a_kept_singleton(torch):
    F = torch.nn.functional
    chosen, target = torch.randn(4, 1), torch.randn(4)
    for loss in (F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert loss(chosen, target, reduction="none").shape == (4, 4)  # only a UserWarning
        assert caught
    assert torch.nn.MSELoss(reduction="none")(chosen, target).shape == (4, 4)
    assert torch.where(target > 0, chosen, target).shape == (4, 4)
    assert torch.min(chosen, target).shape == torch.mul(chosen, target).shape == (4, 4)
    assert torch.masked_select(chosen, target > -10).shape == (16,)
    assert (-torch.log(chosen.abs()) * target).shape == (4, 4)
    assert F.cross_entropy(torch.randn(4, 3), torch.zeros(4, dtype=torch.long), reduction="none").shape == (4,)


def test_rank_three_message_names_the_condition():
    code = """
    import torch
    def f(logp, ids, mask):
        # logp: [B, L, V]  ids: [B, L]  mask: [B, L]
        return logp.gather(-1, ids.unsqueeze(-1)) * mask
    """
    [finding] = lint(code)
    assert "whenever B == L" in finding.message
