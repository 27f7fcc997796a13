"""GL005, the flattened-dim variant: an index sized for one factor (`[B, 1]`) of a dim the input has
flattened (`[T*B, A]`) reads only the first B of the T*B rows, silently."""
import textwrap

import pytest

from .conftest import lint

MODULE_DOCSTRING = '''
import torch
import torch.nn as nn


class StepCritic(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.head = nn.Linear(obs_dim, n_actions)

    def forward(self, frames):
        """
        Args:
            frames (Tensor): (steps, envs, obs_dim)
        Returns:
            Tensor: (steps * envs, n_actions)
        """
        return self.head(frames.flatten(0, 1))


def final_values(critic, frames, chosen):
    """
    Args:
        frames (Tensor): (steps, envs, obs_dim)
        chosen (LongTensor): (envs,)
    """
    values = critic(frames)
    return values.gather(1, chosen.unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    critic = StepCritic(3, 4)
    out = final_values(critic, torch.randn(5, 6, 3), torch.randint(0, 4, (6,)))
'''

FUNCTION_COMMENTS = '''
import torch


def pick(scores, picks):
    # scores: [beams, batch, vocab]
    # picks: [batch]
    flat = scores.reshape(-1, scores.size(-1))  # [beams*batch, vocab]
    return flat.gather(1, picks.view(-1, 1))
'''

JAXTYPING = '''
import torch
from jaxtyping import Float, Int
from torch import Tensor


def head_scores(
    attn: Float[Tensor, "batch heads keys"],
    key_idx: Int[Tensor, "batch 1"],
) -> Float[Tensor, "batch 1"]:
    merged = attn.reshape(-1, attn.shape[-1])
    return torch.gather(merged, 1, key_idx)
'''

CONSTRUCTORS = '''
import torch


def run(T: int, B: int, A: int):
    q = torch.randn(T, B, A).view(-1, A)
    actions = torch.randint(0, A, (B, 1))
    return q.gather(1, actions)
'''


@pytest.mark.parametrize("code", [MODULE_DOCSTRING, FUNCTION_COMMENTS, JAXTYPING, CONSTRUCTORS],
                         ids=["module-docstring-driver", "function-comments", "jaxtyping", "constructors"])
def test_index_for_one_factor_is_reported(code):
    found = [f for f in lint(code) if f.code == "GL005"]
    assert len(found) == 1, [f.message for f in lint(code)]
    assert "reads only the first" in found[0].message


@pytest.mark.parametrize("code", [
    # the index covers every flattened row
    '''
import torch
def run(T: int, B: int, A: int):
    q = torch.randn(T, B, A).view(T * B, A)
    actions = torch.randint(0, A, (T * B, 1))
    return q.gather(1, actions)
''',
    # a concatenation doubles a dim by a number: the wanted half may come first
    '''
import torch
def run(B: int, V: int):
    logits = torch.cat([torch.randn(B, V), torch.randn(B, V)], dim=0)
    labels = torch.randint(0, V, (B, 1))
    return logits.gather(1, labels)
''',
    # the index is sized for another dim altogether: unsure, stay silent
    '''
import torch
def run(T: int, B: int, K: int, A: int):
    q = torch.randn(T, B, A).view(T * B, A)
    actions = torch.randint(0, A, (K, 1))
    return q.gather(1, actions)
''',
    # take_along_dim broadcasts instead of truncating
    '''
import torch
def run(T: int, B: int, A: int):
    q = torch.randn(T, B, A).view(T * B, A)
    actions = torch.randint(0, A, (B, 1))
    return torch.take_along_dim(q, actions, dim=1)
''',
])
def test_other_layouts_stay_silent(code):
    assert "GL005" not in [f.code for f in lint(code)]


def test_torch_reads_only_the_first_block(torch):
    """What the message claims: the [B, 1] index reads rows 0..B-1 of the [T*B, A] input, i.e. step 0."""
    T, B, A = 4, 3, 5
    q = torch.randn(T, B, A)
    actions = torch.randint(0, A, (B,))
    out = q.view(T * B, A).gather(1, actions.unsqueeze(1)).squeeze(1)
    assert out.shape == (B,)
    assert torch.equal(out, q[0, torch.arange(B), actions])  # the first B rows: time step 0
    assert not torch.equal(out, q[-1, torch.arange(B), actions])  # not the step the author wanted
