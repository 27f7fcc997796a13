"""A window that ends where the loop writes: in `for cur in range(start, total)`, `x[:, prev:cur]` read before
`x[:, cur] = nxt` holds what the prompt and earlier rounds wrote, not the padding ahead. llama-style generation fills
its token buffer with pad_id = -1 and feeds the model only such windows, so nothing negative reaches the embedding.
A window that reaches the column not yet written (`prev:cur + 1`) does read the padding, and torch raises. Each claim
runs in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

GENERATE = """
import torch
import torch.nn as nn

class Decoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.out(self.emb(tokens))

def generate(model, prompts, max_gen_len, pad_id=-1):
    bsz = len(prompts)
    min_len = min(len(p) for p in prompts)
    total = max(len(p) for p in prompts) + max_gen_len
    tokens = torch.full((bsz, total), pad_id, dtype=torch.long)
    for k, p in enumerate(prompts):
        tokens[k, : len(p)] = torch.tensor(p, dtype=torch.long)
    prompt_mask = tokens != pad_id
    prev = 0
    for cur in range(min_len, total):
        logits = model(tokens[:, prev:cur])
        nxt = logits[:, -1].argmax(-1)
        nxt = torch.where(prompt_mask[:, cur], tokens[:, cur], nxt)
        tokens[:, cur] = nxt
        prev = cur
    return tokens

if __name__ == "__main__":
    torch.manual_seed(0)
    OUT = generate(Decoder(11, 8), [[1, 2, 3], [4, 5]], 4)
"""


def test_a_window_before_the_written_column_holds_no_padding():
    assert codes(GENERATE) == []
    out = run_snippet(GENERATE)["OUT"]
    assert out.shape == (2, 7) and bool((out >= 0).all())  # every position written, no -1 left


@pytest.mark.parametrize("old, new", [
    ("model(tokens[:, prev:cur])", "model(tokens[:, prev:cur + 1])"),  # the window reaches the unwritten column
    ("        tokens[:, cur] = nxt\n", "        tokens[:, prev] = nxt\n"),  # the loop writes elsewhere
])
def test_padding_still_ahead_in_the_window_is_reported(old, new):
    code = GENERATE.replace(old, new)
    assert code != GENERATE
    assert codes(code) == ["GL011"]
    with pytest.raises(IndexError, match="index out of range"):
        run_snippet(code)
