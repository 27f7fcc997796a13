"""GL007 at a loss helper that shifts the labels itself, reached through an attribute the model stores it in
(`self.compute_loss = lm_loss`), on the path taken when its optional pre-shifted labels are left out; the
caller already cut the logits at [:-1] (from any start) and the labels at [1:]: each position meets the
token two steps ahead."""
import textwrap

import pytest

from .conftest import lint

PADDING_HELPER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


def lm_loss(scores, targets, vocab, shifted_targets=None, ignore=-100):
    if shifted_targets is None:
        targets = F.pad(targets, (0, 1), value=ignore)
        shifted_targets = targets[..., 1:]
    flat = scores.reshape(-1, vocab)
    return F.cross_entropy(flat, shifted_targets.reshape(-1), ignore_index=ignore)


class PrefixCaptioner(nn.Module):
    def __init__(self, vocab, width, n_prefix):
        super().__init__()
        self.vocab, self.n_prefix = vocab, n_prefix
        self.prefix = nn.Parameter(torch.randn(n_prefix, width))
        self.embed = nn.Embedding(vocab, width)
        self.rnn = nn.GRU(width, width, batch_first=True)
        self.head = nn.Linear(width, vocab)
        self.compute_loss = lm_loss

    def forward(self, words, labels):
        prefix = self.prefix.expand(words.shape[0], -1, -1)
        states, _ = self.rnn(torch.cat([prefix, self.embed(words)], dim=1))
        logits = self.head(states)
        {CALL}
        return loss
'''

SLICING_HELPER = '''
import torch
import torch.nn as nn


def next_token_nll(logits, labels):
    logp = logits[:, :-1].log_softmax(-1)
    return -logp.gather(-1, labels[:, 1:].unsqueeze(-1)).mean()


class Decoder(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.embed, self.head = nn.Embedding(vocab, 8), nn.Linear(8, vocab)
        self.criterion = next_token_nll

    def forward(self, ids, labels):
        logits = self.head(self.embed(ids).cumsum(1))
        return self.criterion({ARGS})
'''


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("call, fires", [
    ("loss = self.compute_loss(logits[:, self.n_prefix:-1].reshape(-1, self.vocab), labels[:, 1:].reshape(-1), self.vocab)", True),
    ("loss = self.compute_loss(logits[:, :-1], labels[:, 1:], vocab=self.vocab)", True),
    # the pre-shifted labels handed over as such: the helper does not shift them again
    ("loss = self.compute_loss(logits[:, self.n_prefix:-1], labels, self.vocab, shifted_targets=labels[:, 1:])", False),
    ("loss = self.compute_loss(logits[:, :-1], labels, self.vocab, labels[:, 1:])", False),
    # unshifted logits and labels: the helper's own shift is the only one
    ("loss = self.compute_loss(logits[:, self.n_prefix:], labels, self.vocab)", False),
])
def test_padding_helper_stored_on_the_model(call, fires):
    code = PADDING_HELPER.replace("{CALL}", call)
    assert (_found(code) == [("GL007", _line_of(code, "loss = self.compute_loss"))]) == fires, call


@pytest.mark.parametrize("args, fires", [
    ("logits[:, :-1], labels[:, 1:]", True),
    ("logits, labels", False),
])
def test_slicing_helper_stored_on_the_model(args, fires):
    code = SLICING_HELPER.replace("{ARGS}", args)
    assert (_found(code) == [("GL007", _line_of(code, "return self.criterion"))]) == fires, args


def test_attribute_bound_to_two_helpers_is_not_followed():
    code = SLICING_HELPER.replace("{ARGS}", "logits[:, :-1], labels[:, 1:]").replace(
        "        self.criterion = next_token_nll\n",
        "        self.criterion = next_token_nll\n\n    def plain(self):\n        self.criterion = print\n")
    assert _found(code) == []


def test_torch_padding_helper_after_a_shift_scores_the_token_after_next(torch):
    import torch.nn.functional as F
    torch.manual_seed(0)
    logits, labels = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))

    def lm_loss(scores, targets, shifted_targets=None):
        if shifted_targets is None:
            shifted_targets = F.pad(targets, (0, 1), value=-100)[..., 1:]
        return F.cross_entropy(scores.reshape(-1, 7), shifted_targets.reshape(-1), ignore_index=-100)

    lp = logits.log_softmax(-1)
    next_token = -torch.stack([lp[b, t, labels[b, t + 1]] for b in range(2) for t in range(4)]).mean()
    after_next = -torch.stack([lp[b, t, labels[b, t + 2]] for b in range(2) for t in range(3)]).mean()
    assert torch.allclose(lm_loss(logits, labels), next_token)
    assert torch.allclose(lm_loss(logits[:, :-1], labels, shifted_targets=labels[:, 1:]), next_token)
    assert torch.allclose(lm_loss(logits[:, :-1], labels[:, 1:]), after_next)
    assert not torch.allclose(after_next, next_token)
