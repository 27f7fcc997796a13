"""GL007 at a per-token loss: `cross_entropy(logits.view(-1, V), labels.view(-1))` pairs positions like a
gather, so labels a causal model's forward scores at their own positions, unshifted, are reported, whether
the caller passes the ids twice or a collate step copies the ids into the labels."""
import textwrap

import pytest

from .conftest import lint

LSTM_CRITERION = '''
import torch
import torch.nn as nn


class CharModel(nn.Module):
    def __init__(self, n_chars, width):
        super().__init__()
        self.embed = nn.Embedding(n_chars, width)
        self.rnn = nn.LSTM(width, width, batch_first=True)
        self.proj = nn.Linear(width, n_chars)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, chars, targets):
        states, _ = self.rnn(self.embed(chars))
        scores = self.proj(states)
        return {LOSS}


def run(text):
    net = CharModel(30, 16)
    return net(text, text)


if __name__ == "__main__":
    run(torch.randint(0, 30, (4, 12)))
'''

SAME_POSITIONS = "self.criterion(scores.flatten(0, 1), targets.flatten())"
NEXT_TOKEN = "self.criterion(scores[:, :-1].reshape(-1, scores.size(-1)), targets[:, 1:].reshape(-1))"

COLLATED = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def pad_and_copy(rows, pad=0):
    longest = max(len(r) for r in rows)
    tokens = torch.full((len(rows), longest), pad)
    for i, r in enumerate(rows):
        tokens[i, :len(r)] = torch.tensor(r)
    {LABELS}
    return {{"tokens": tokens, "gold": gold}}


class WordLM(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.gru = nn.GRU(width, width, batch_first=True)
        self.out = nn.Linear(width, vocab)

    def forward(self, tokens, gold=None):
        hidden, _ = self.gru(self.emb(tokens))
        logits = self.out(hidden)
        if gold is None:
            return logits
        gold = gold.to(logits.device)
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), gold.view(-1), ignore_index=-100)


def train(rows):
    lm = WordLM(40, 8)
    loader = DataLoader(rows, batch_size=2, collate_fn=pad_and_copy)
    for batch in loader:
        lm(**batch).backward()


if __name__ == "__main__":
    train([[3, 4, 5], [6, 7]])
'''

COPIED = "gold = tokens.masked_fill(tokens == pad, -100)"
SHIFTED_IN_PLACE = "gold = torch.full_like(tokens, -100)\n    gold[:, :-1] = tokens[:, 1:]"

TRANSPOSED = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed, self.head = nn.Embedding(11, 8), nn.Linear(8, 11)

    def forward(self, ids):
        return self.head(self.embed(ids).cumsum(1))


def sequence_loss(model: TinyCausalLM, ids):
    logits = model(ids)
    return {LOSS}
'''


def _codes_at(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


def test_criterion_module_on_self_scores_each_token_at_its_own_position():
    code = LSTM_CRITERION.replace("{LOSS}", SAME_POSITIONS)
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL007", _line_of(code, "self.criterion(scores"))]
    assert "scored against" in found[0].message and "causal" in found[0].message


def test_criterion_module_with_the_next_token_shift_is_silent():
    assert _codes_at(LSTM_CRITERION.replace("{LOSS}", NEXT_TOKEN)) == []


def test_bidirectional_model_may_score_each_position_itself():
    code = LSTM_CRITERION.replace("{LOSS}", SAME_POSITIONS).replace("batch_first=True", "batch_first=True, bidirectional=True")
    assert _codes_at(code) == []


def test_labels_copied_by_the_collate_function_into_an_unshifted_loss():
    code = COLLATED.format(LABELS=COPIED)
    assert _codes_at(code) == [("GL007", _line_of(code, "return F.cross_entropy"))]


def test_labels_shifted_in_place_by_the_collate_function_are_silent():
    assert _codes_at(COLLATED.format(LABELS=SHIFTED_IN_PLACE)) == []


@pytest.mark.parametrize("loss, fires", [
    ("F.cross_entropy(logits.transpose(1, 2), ids)", True),
    ("F.cross_entropy(logits.permute(0, 2, 1), ids, reduction='none')", True),
    ("nn.CrossEntropyLoss()(logits.reshape(-1, 11), ids.reshape(-1))", True),
    ("F.nll_loss(logits.log_softmax(-1).view(-1, 11), ids.view(-1))", True),
    ("F.cross_entropy(logits[:, :-1].transpose(1, 2), ids[:, 1:])", False),
    ("F.cross_entropy(input=logits[:, :-1].reshape(-1, 11), target=ids[:, 1:].reshape(-1))", False),
    ("F.cross_entropy(logits.view(-1, 11), ids.view(-1)[1:])", False),  # a slice of the flat ids: not placed
    ("F.cross_entropy(logits.transpose(1, 2), ids.view(-1))", False),  # flattened on one side only
])
def test_loss_spellings_in_a_function(loss, fires):
    code = TRANSPOSED.replace("{LOSS}", loss)
    assert (_codes_at(code) == [("GL007", _line_of(code, "    return " + loss[:12]))]) == fires, loss


def test_torch_unshifted_loss_differs_from_next_token_loss(torch):
    """What the reported spellings compute: each token scored by the prediction made at it."""
    import torch.nn.functional as F
    torch.manual_seed(0)
    ids = torch.randint(0, 11, (2, 6))
    embed, head = torch.nn.Embedding(11, 8), torch.nn.Linear(8, 11)
    logits = head(embed(ids).cumsum(1))  # position t has read tokens 0..t
    same = F.cross_entropy(logits.view(-1, 11), ids.view(-1))
    transposed = F.cross_entropy(logits.transpose(1, 2), ids)
    shifted = F.cross_entropy(logits[:, :-1].transpose(1, 2), ids[:, 1:])
    lp = logits.log_softmax(-1)
    reference = -torch.stack([lp[b, t, ids[b, t + 1]] for b in range(2) for t in range(5)]).mean()
    assert torch.allclose(same, transposed)
    assert torch.allclose(shifted, reference) and not torch.allclose(same, reference)


SHIFTING_FORWARD = '''
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss


class CharLMHeadModel(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.lm_head = nn.Linear(width, vocab)

    def forward(self, input_ids, labels=None):
        logits = self.lm_head(self.wte(input_ids).cumsum(1))
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        return CrossEntropyLoss()(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))


def sample_window(stream, width):
    at = torch.randint(len(stream) - width - 1, (1,)).item()
    window = stream[at:at + width]
    return window[None], {TARGETS}


if __name__ == "__main__":
    net = CharLMHeadModel(20, 8)
    stream = torch.randint(0, 20, (100,))
    xb, yb = sample_window(stream, 8)
    net(xb, labels=yb).backward()
'''


@pytest.mark.parametrize("targets, fires", [
    ("stream[at + 1:at + 1 + width].unsqueeze(0)", True),  # one ahead, and the forward shifts again
    ("window[None].clone()", False),  # the inputs themselves: the forward's shift is the only one
])
def test_forward_with_its_own_shift_given_pre_shifted_labels(targets, fires):
    code = SHIFTING_FORWARD.replace("{TARGETS}", targets)
    assert (_codes_at(code) == [("GL007", _line_of(code, "return CrossEntropyLoss()"))]) == fires, targets
