"""A batched helper checked against itself on one sample at a time (`f([sample])`): under that call
the batch has size 1, so an index of size 1 on the batch dim is the data's, not an unexpanded index.
The helper's own analysis (and a caller passing a real batch) still reports the unexpanded form."""
from .conftest import codes
from .snippets import run_snippet

PER_SAMPLE_REFERENCE = """
import torch
from torch import nn

class Encoder(nn.Module):
    def __init__(self, vocab=10, width=4, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))

    def forward(self, ids):
        h = self.emb(ids)
        outputs = [h]
        for layer in self.layers:
            h = h + layer(h)
            outputs.append(h)
        return outputs

def padded(rows):
    width = max(len(r) for r in rows)
    ids = torch.zeros(len(rows), width, dtype=torch.long)
    valid = torch.zeros(len(rows), width, dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, :len(r)] = r
        valid[i, :len(r)] = 1
    return ids, valid

def final_states(encoder, rows):
    ids, valid = padded(rows)
    states = encoder(valid * ids)[-1]  # [N, W, E]
    end = valid.sum(1) - 1
    return states.gather(1, end.view(-1, 1, 1).expand(-1, 1, states.size(-1))).squeeze(1)

if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = Encoder()
    rows = [torch.randint(1, 10, (n,)) for n in (3, 1, 2)]
    whole = final_states(encoder, rows)
    alone = torch.stack([final_states(encoder, [r])[0] for r in rows])
    assert torch.allclose(whole, alone)
    ends = torch.stack([r[-1:] for r in rows])
    assert torch.allclose(whole, encoder(ends)[-1][:, 0])
"""

# the same helper without `.expand(...)`: only feature 0 of each final state is read
UNEXPANDED = PER_SAMPLE_REFERENCE.replace(
    "end.view(-1, 1, 1).expand(-1, 1, states.size(-1))", "end.view(-1, 1, 1)"
).replace("    assert torch.equal(whole, alone)\n", "").replace("assert torch.allclose(whole, encoder", "wrong = not torch.allclose(whole, encoder")


def test_per_sample_reference_is_silent_and_right_in_torch(torch):
    assert run_snippet(PER_SAMPLE_REFERENCE)["whole"].shape == (3, 4)
    assert "GL005" not in codes(PER_SAMPLE_REFERENCE)


def test_an_index_without_the_batch_is_still_reported(torch):
    scope = run_snippet(UNEXPANDED)
    assert scope["whole"].shape == (3, 1)  # one feature of four: the feature dim was never expanded
    assert scope["wrong"]
    assert "GL005" in codes(UNEXPANDED)


# a driver scoring one prompt: its ids are one row, and the model's output is declared [B, R, V]
ONE_ROW_DRIVER = """
import torch
from torch import nn

class Scorer(nn.Module):
    def __init__(self, vocab=50, hidden=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids):
        return self.head(self.embed(ids))

def token_log_probs(model, response_ids):
    logits = model(response_ids)  # [B, R, V]
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, response_ids.unsqueeze(-1)).squeeze(-1)

if __name__ == "__main__":
    torch.manual_seed(0)
    model = Scorer()
    response = torch.tensor([[7, 3, 41, 9]])
    got = token_log_probs(model, response)
    logp = torch.log_softmax(model(response), dim=-1)
    expected = torch.stack([logp[0, r, response[0, r]] for r in range(4)])
    assert torch.allclose(got[0], expected)
"""


def test_a_one_row_tensor_from_the_driver_is_a_batch_of_one(torch):
    assert run_snippet(ONE_ROW_DRIVER)["got"].shape == (1, 4)  # the whole batch is read: B is 1 here
    assert "GL005" not in codes(ONE_ROW_DRIVER)


def test_a_one_row_index_on_a_larger_batch_is_still_reported(torch):
    # the same helper handed a batch of 3: the caller's [1, 4] ids against [3, 4, V] log-probs
    wrong = ONE_ROW_DRIVER.replace("logits = model(response_ids)  # [B, R, V]",
                                   "logits = model(response_ids.expand(3, -1).contiguous())  # [B, R, V]")
    wrong = wrong.replace("    assert torch.allclose(got[0], expected)\n", "")
    scope = run_snippet(wrong)
    assert scope["got"].shape == (1, 4)  # rows 1 and 2 of the batch of 3 are never read
    assert "GL005" in codes(wrong)
