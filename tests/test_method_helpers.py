"""GL007 through a method that gathers or scores like a module helper, called as `self.<name>(...)`: its own
slices apply to the arguments, so a caller that shifts before a method that shifts too is reported."""
import textwrap

import pytest

from .conftest import lint

TRAINER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, vocab):
        self.model, self.vocab = model, vocab

    def next_token_loss(self, logits, targets):
        return F.cross_entropy(logits[:, :-1].reshape(-1, self.vocab), targets[:, 1:].reshape(-1))

    def step(self, batch):
        {STEP}
'''


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("step, fires", [
    ("logits = self.model(batch[:, :-1])\n        return self.next_token_loss(logits, batch[:, 1:])", True),
    ("return self.next_token_loss(self.model(batch), batch)", False),
    ("logits = self.model(batch)\n        return self.next_token_loss(logits, batch)", False),
])
def test_caller_shift_before_a_shifting_method(step, fires):
    code = TRAINER.replace("{STEP}", step)
    assert (_found(code) == [("GL007", _line_of(code, "return self.next_token_loss"))]) == fires, step


def test_two_classes_with_one_method_name_summarised_differently_are_left_out():
    code = TRAINER.replace("{STEP}", "logits = self.model(batch[:, :-1])\n        return self.next_token_loss(logits, batch[:, 1:])") + '''

class Other:
    def next_token_loss(self, logits, targets):
        return F.cross_entropy(logits.reshape(-1, 5), targets.reshape(-1))
'''
    assert _found(code) == []


def test_torch_a_second_shift_scores_two_tokens_ahead(torch):
    import torch.nn.functional as F
    torch.manual_seed(0)
    batch = torch.randint(0, 7, (2, 6))
    logits = torch.randn(2, 5, 7)  # the model's output on batch[:, :-1]: position t predicts batch[:, t + 1]
    twice = F.cross_entropy(logits[:, :-1].reshape(-1, 7), batch[:, 1:][:, 1:].reshape(-1))
    lp = logits.log_softmax(-1)
    assert torch.allclose(twice, -torch.stack([lp[b, t, batch[b, t + 2]] for b in range(2) for t in range(4)]).mean())
