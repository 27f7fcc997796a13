"""GL007: labels a collate function copies from the input ids (masking the prompt with one value keeps
every position) reach a per-token gather at the ids' own positions on a causal model, also when the batch
is handed to a scoring function of the file."""
import textwrap

import pytest

from .conftest import lint

PIPELINE = '''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

IGNORE = -100


class TinyGRULM(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.rnn = nn.GRU(width, width, batch_first=True)
        self.proj = nn.Linear(width, vocab)

    def forward(self, ids):
        states, _ = self.rnn(self.emb(ids))
        return self.proj(states)


def build_batch(examples, prompt_len=2):
    ids = torch.stack([torch.tensor(p + r) for p, r in examples])
    {LABELS}
    return dict(ids=ids, targets=targets)


def score(net, batch):
    logits = net(batch["ids"])
    targets = batch["targets"]
    {SCORE}
    return (picked * (targets{CUT} != IGNORE)).sum(-1)


if __name__ == "__main__":
    lm = TinyGRULM(30, 8)
    examples = [([1, 2], [3, 4]), ([5, 6], [7, 8])]
    for batch in DataLoader(examples, batch_size=2, collate_fn=build_batch):
        print(score(lm, batch))
'''

MASKED_COPY = "targets = ids.clone()\n    targets[:, :prompt_len] = IGNORE"
SAME = "picked = logits.log_softmax(-1).gather(-1, targets.clamp(min=0).unsqueeze(-1)).squeeze(-1)"
NEXT = "picked = logits[:, :-1].log_softmax(-1).gather(-1, targets[:, 1:].clamp(min=0).unsqueeze(-1)).squeeze(-1)"


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("labels, scoring, cut, fires", [
    (MASKED_COPY, SAME, "", True),
    ("targets = ids.masked_fill(ids == 0, IGNORE)", SAME, "", True),
    (MASKED_COPY, NEXT, "[:, 1:]", False),
    # labels the collate function shifted itself: aligned with the logits already
    ("targets = torch.full_like(ids, IGNORE)\n    targets[:, :-1] = ids[:, 1:]", SAME, "", False),
])
def test_batch_handed_to_a_scoring_function(labels, scoring, cut, fires):
    code = PIPELINE.replace("{LABELS}", labels).replace("{SCORE}", scoring).replace("{CUT}", cut)
    assert (_found(code) == [("GL007", _line_of(code, "picked = "))]) == fires, (labels, scoring)


def test_bidirectional_model_is_not_judged():
    code = PIPELINE.replace("{LABELS}", MASKED_COPY).replace("{SCORE}", SAME).replace("{CUT}", "") \
        .replace("batch_first=True", "batch_first=True, bidirectional=True").replace("nn.Linear(width, vocab)", "nn.Linear(2 * width, vocab)")
    assert _found(code) == []


def test_torch_a_masked_copy_scored_at_its_own_positions_reads_the_prediction_made_at_each_token(torch):
    torch.manual_seed(0)
    ids = torch.tensor([[1, 2, 3, 4]])
    targets = ids.clone()
    targets[:, :2] = -100
    assert (targets[:, 2:] == ids[:, 2:]).all()  # the response tokens sit where they were
    logits = torch.randn(1, 4, 6)
    lp = logits.log_softmax(-1)
    same = lp.gather(-1, targets.clamp(min=0).unsqueeze(-1)).squeeze(-1)[:, 2:]
    nxt = lp[:, :-1].gather(-1, targets[:, 1:].clamp(min=0).unsqueeze(-1)).squeeze(-1)[:, 1:]
    assert torch.allclose(same, lp[0, [2, 3], [3, 4]]) and torch.allclose(nxt, lp[0, [1, 2], [3, 4]])
