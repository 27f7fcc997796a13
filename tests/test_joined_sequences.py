"""GL007: a completion joined after a prompt (`torch.cat([prompt, completion], dim=1)`) and scored with the
logits cut at the prompt's length reads each completion token at its own position; the logits one position
earlier (`[start - 1:-1]`) predict it."""
import textwrap

import pytest

from .conftest import lint

SCORER = '''
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed, self.head = nn.Embedding(11, 8), nn.Linear(8, 11)

    def forward(self, ids):
        return self.head(self.embed(ids).cumsum(1))


def completion_logprob(model: TinyCausalLM, prompt, completion):
    {JOIN}
    logits = model(seq)
    {CUT}
    return lp.gather(-1, completion.unsqueeze(-1)).squeeze(-1).sum(-1)
'''


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("join, cut, fires", [
    ("seq = torch.cat([prompt, completion], dim=1)", "start = prompt.size(1)\n    lp = logits[:, start:].log_softmax(-1)", True),
    ("seq = torch.cat((prompt, completion), -1)", "lp = logits[:, prompt.shape[-1]:].log_softmax(-1)", True),
    ("seq = torch.cat([prompt, completion], dim=1)", "start = prompt.size(1)\n    lp = logits[:, start - 1:-1].log_softmax(-1)", False),
    ("seq = torch.cat((prompt, completion), -1)", "lp = logits[:, prompt.shape[-1] - 1:-1].log_softmax(-1)", False),
    ("seq = torch.cat([prompt, completion], dim=0)", "lp = logits[:, prompt.size(1):].log_softmax(-1)", False),  # batch dim
])
def test_completion_scored_after_a_joined_prompt(join, cut, fires):
    code = SCORER.replace("{JOIN}", join).replace("{CUT}", cut)
    assert (_found(code) == [("GL007", _line_of(code, "return lp.gather"))]) == fires, (join, cut)


def test_torch_completion_logits_one_position_earlier_predict_it(torch):
    torch.manual_seed(0)
    prompt, completion = torch.randint(0, 11, (1, 4)), torch.randint(0, 11, (1, 3))
    seq = torch.cat([prompt, completion], dim=1)
    embed, head = torch.nn.Embedding(11, 8), torch.nn.Linear(8, 11)
    lp = head(embed(seq).cumsum(1)).log_softmax(-1)
    right = lp[:, 3:-1].gather(-1, completion.unsqueeze(-1)).squeeze(-1)
    wrong = lp[:, 4:].gather(-1, completion.unsqueeze(-1)).squeeze(-1)
    assert torch.allclose(right[0], torch.stack([lp[0, 3 + j, seq[0, 4 + j]] for j in range(3)]))
    assert torch.allclose(wrong[0], torch.stack([lp[0, 4 + j, seq[0, 4 + j]] for j in range(3)]))
