"""GL007: models built side by side (`policy, reference = Lm(...), Lm(...)`) are known by their class when
handed to a scoring function, like a model built alone."""
import textwrap

import pytest

from .conftest import lint

SCRIPT = '''
import torch
import torch.nn as nn


def per_token_logps(logits, ids):
    return logits.log_softmax(-1).gather(-1, ids.unsqueeze(-1)).squeeze(-1)


class TinyPolicy(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.rnn(self.embed(ids))[0])


def sequence_logp(model, ids):
    return per_token_logps({PAIR}).sum(-1)


if __name__ == "__main__":
    policy, reference = TinyPolicy(20, 8), TinyPolicy(20, 8).eval()
    ids = torch.randint(0, 20, (2, 6))
    print(sequence_logp(policy, ids) - sequence_logp(reference, ids))
'''


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("pair, fires", [
    ("model(ids), ids", True),
    ("model(ids)[:, :-1], ids[:, 1:]", False),
])
def test_models_built_in_one_tuple_assignment(pair, fires):
    code = SCRIPT.replace("{PAIR}", pair)
    assert (_found(code) == [("GL007", _line_of(code, ".gather(-1, ids"))]) == fires, pair


def test_torch_same_position_gather_differs_from_next_token(torch):
    torch.manual_seed(0)
    ids = torch.randint(0, 20, (2, 6))
    logits = torch.randn(2, 6, 20)
    lp = logits.log_softmax(-1)
    same = lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
    nxt = lp[:, :-1].gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    assert torch.allclose(same[0, 1], lp[0, 1, ids[0, 1]]) and torch.allclose(nxt[0, 0], lp[0, 0, ids[0, 1]])
