"""GL007: a collator class (`__call__` on a list of examples) whose labels copy the input ids, called
directly, built and called at once, or handed to a DataLoader as `collate_fn`, into a causal forward that
scores the labels without a shift."""
import textwrap

import pytest

from .conftest import lint

SCRIPT = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass
from torch.utils.data import DataLoader


@dataclass
class PadCollator:
    pad_id: int = 0

    def __call__(self, rows):
        width = max(len(r) for r in rows)
        ids = torch.tensor([r + [self.pad_id] * (width - len(r)) for r in rows])
        {LABELS}
        return {{"input_ids": ids, "labels": labels}}


class RecurrentLM(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.rnn = nn.RNN(width, width, batch_first=True)
        self.out = nn.Linear(width, vocab)

    def forward(self, input_ids, labels=None):
        hidden, _ = self.rnn(self.emb(input_ids))
        logits = self.out(hidden)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1), ignore_index=-100)


if __name__ == "__main__":
    lm = RecurrentLM(30, 8)
    rows = [[1, 2, 3], [4, 5]]
    {CALL}
'''

COPY = "labels = ids.masked_fill(ids == self.pad_id, -100)"
SHIFTED = "labels = ids[:, 1:]\n        ids = ids[:, :-1]"

CALLS = [
    "collate = PadCollator(pad_id=0)\n    batch = collate(rows)\n    lm(**batch).backward()",
    "batch = PadCollator(0)(rows)\n    lm(**batch).backward()",
    "for batch in DataLoader([rows[0], rows[1]], batch_size=2, collate_fn=PadCollator()):\n        lm(**batch).backward()",
]


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("call", CALLS, ids=["instance", "built-and-called", "collate_fn"])
@pytest.mark.parametrize("labels, fires", [(COPY, True), (SHIFTED, False)], ids=["copied", "pre-shifted"])
def test_collator_class_labels_into_an_unshifted_causal_loss(call, labels, fires):
    code = SCRIPT.format(LABELS=labels, CALL=call)
    assert (_found(code) == [("GL007", _line_of(code, "return F.cross_entropy"))]) == fires, (call, labels)


def test_torch_copied_labels_scored_unshifted_read_each_token_where_it_was_fed(torch):
    import torch.nn.functional as F
    torch.manual_seed(0)
    ids = torch.tensor([[1, 2, 3], [4, 5, 0]])
    labels = ids.masked_fill(ids == 0, -100)
    logits = torch.randn(2, 3, 6)
    unshifted = F.cross_entropy(logits.reshape(-1, 6), labels.reshape(-1), ignore_index=-100)
    lp = logits.log_softmax(-1)
    at_own = -torch.stack([lp[0, 0, 1], lp[0, 1, 2], lp[0, 2, 3], lp[1, 0, 4], lp[1, 1, 5]]).mean()
    shifted = F.cross_entropy(logits[:, :-1].reshape(-1, 6), labels[:, 1:].reshape(-1), ignore_index=-100)
    assert torch.allclose(unshifted, at_own) and not torch.allclose(unshifted, shifted)


@pytest.mark.parametrize("call", CALLS, ids=["instance", "built-and-called", "collate_fn"])
def test_pre_shifted_collator_into_a_forward_that_shifts_again(call):
    code = SCRIPT.format(LABELS=SHIFTED, CALL=call).replace(
        "logits.reshape(-1, logits.size(-1)), labels.reshape(-1)",
        "logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1)")
    # reported where the pre-shifted batch meets the forward's own shift
    assert _found(code) == [("GL007", _line_of(code, "lm(**batch)"))]
