"""Tensors kept in a dict under literal keys reach the call that reads them back: items written one by
one (`out["logits"] = x`), read with `.get`, or mapped by a comprehension that indexes every item
(`{k: v[idx] for k, v in batch.items()}`: a replay buffer sampled, a graph's node data gathered)."""
import pytest

from .conftest import codes

WRITTEN = """
import torch
def heads(batch: int, length: int, vocab: int):
    out = {{}}
    out["logits"] = torch.randn(batch, length, vocab)
    out["mask"] = torch.ones(batch, length)
    {between}
    targets = torch.randint(0, vocab, (batch, length))
    return {read}.gather(-1, targets{tail})
"""


@pytest.mark.parametrize("read", ['out["logits"]', 'out.get("logits")', 'out.get("logits", None)'])
@pytest.mark.parametrize("between, tail, fires", [
    ("", "", True),
    ("", ".unsqueeze(-1)", False),                       # the correct form
    ('out["logits"] = out["logits"].sum(-1)', "", False),  # rewritten 2-d: the index fits
    ("out[name] = None", "", False),                      # a key not known: nothing is
])
def test_items_written_under_literal_keys(read, between, tail, fires):
    code = WRITTEN.format(read=read, between=between.replace("name", "str(batch)"), tail=tail)
    assert (codes(code) == ["GL001"]) == fires, code


def test_get_of_a_missing_key_stays_unknown():
    code = """
    import torch
    def f(n: int, d: int, fallback):
        out = {"a": torch.randn(n, d)}
        ids = torch.zeros(n, dtype=torch.long)
        return out.get("b", fallback).gather(0, ids)
    """
    assert codes(code) == []


def test_rank_of_an_item_torch_rejects(torch):
    out = {"logits": torch.randn(2, 3, 5)}
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        out["logits"].gather(-1, torch.randint(0, 5, (2, 3)))


SAMPLED = """
import torch
import torch.nn as nn

class Replay(nn.Module):
    def __init__(self, capacity: int, obs_dim: int, n_actions: int):
        super().__init__()
        self.capacity, self.obs_dim, self.n_actions = capacity, obs_dim, n_actions

    def sample(self, rows: int):
        store = dict(obs=torch.randn(self.capacity, self.obs_dim), act=torch.randint(0, self.n_actions, (self.capacity, 1)))
        pick = torch.randint(0, self.capacity, (rows,))
        batch = {{name: {value} for name, tensor in store.items()}}
        q = torch.randn(rows, self.n_actions)
        return q.gather(1, batch["act"]{tail})
"""


@pytest.mark.parametrize("value", ["tensor[pick]", "tensor.index_select(0, pick)", "torch.index_select(tensor, 0, pick)"])
@pytest.mark.parametrize("tail, fires", [(".unsqueeze(-1)", True), ("", False)])
def test_comprehension_that_indexes_every_item(value, tail, fires):
    code = SAMPLED.format(value=value, tail=tail)
    assert (codes(code) == ["GL001"]) == fires, code


def test_the_sampled_column_torch_sees(torch):
    act = torch.randint(0, 4, (10, 1))
    batch = {k: v[torch.randint(0, 10, (6,))] for k, v in {"act": act}.items()}
    assert batch["act"].shape == (6, 1)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(6, 4).gather(1, batch["act"].unsqueeze(-1))


def test_comprehension_whose_value_ignores_the_item_is_not_mapped():
    code = """
    import torch
    def f(n: int, d: int, other):
        store = {"x": torch.randn(n, d)}
        moved = {k: other for k, v in store.items()}
        ids = torch.zeros(n, dtype=torch.long)
        return moved["x"].gather(0, ids)
    """
    assert codes(code) == []


LOOPED = """
import torch

def shuffle(rows: int, width: int, picks):
    '''Args:
        picks (Tensor of shape (rows,)): the new order of the rows.
    '''
    batch = {{"obs": torch.randn(rows, width), "next_obs": torch.randn(rows, width)}}
    {loop}
"""


@pytest.mark.parametrize("loop", [
    "return [t.gather(0, INDEX) for t in batch.values()]",
    "return {k: v.gather(0, INDEX) for k, v in batch.items()}",
    "for name, t in batch.items():\n        batch[name] = torch.gather(t, 0, INDEX)",
])
@pytest.mark.parametrize("index, fires", [("picks", True), ("picks[:, None].expand(-1, width)", False)])
def test_items_looped_over_share_what_they_agree_on(loop, index, fires):
    code = LOOPED.format(loop=loop.replace("INDEX", index))
    assert (codes(code) == ["GL001"]) == fires, code


def test_items_of_different_ranks_tell_nothing_in_a_loop():
    code = LOOPED.format(loop="return [t.gather(0, picks) for t in batch.values()]").replace(
        '"next_obs": torch.randn(rows, width)', '"next_obs": torch.randn(rows)')
    assert codes(code) == []  # one of them is 1-d: the loop variable's rank is not known


def test_looped_items_torch(torch):
    batch = {"obs": torch.randn(4, 3), "next_obs": torch.randn(4, 3)}
    for t in batch.values():
        with pytest.raises(RuntimeError, match="same number of dimensions"):
            t.gather(0, torch.tensor([3, 2, 1, 0]))


DEFAULTED = """
import torch
def kth(logits, requests):
    k = torch.tensor([r.get("top_k", {default}) for r in requests])
    {between}
    return logits.gather(1, (logits.size(1) - k).unsqueeze(1))

if __name__ == "__main__":
    requests = [{{"temperature": 0.0}}, {{"temperature": 1.0, "top_k": 4}}]
    print(kth(torch.randn(2, 128), requests))
"""


@pytest.mark.parametrize("default, between, fires", [
    ("0", "", True),            # the request without top_k gives 0: position 128 of 128
    ("1", "", False),           # 1 and 4: positions 127 and 124
    ("0", "k = k.clamp(min=1)", False),
])
def test_get_default_of_a_key_a_literal_dict_leaves_out(default, between, fires):
    code = DEFAULTED.format(default=default, between=between)
    assert (codes(code) == ["GL011"]) == fires, code


def test_get_default_when_other_keys_may_be_there():
    # a key written under a name not known may be top_k: the default is not what .get gives
    code = """
    import torch
    def kth(key: str):
        logits = torch.randn(2, 128)
        request = {"temperature": 0.0}
        request[key] = 1
        k = torch.tensor([request.get("top_k", 0), 4])
        return logits.gather(1, (logits.size(1) - k).unsqueeze(1))
    """
    assert codes(code) == []
    assert codes(code.replace("request[key] = 1", "")) == ["GL011"]


def test_the_default_position_torch_rejects(torch):
    requests = [{"temperature": 0.0}, {"temperature": 1.0, "top_k": 4}]
    logits = torch.randn(2, 128)
    k = torch.tensor([r.get("top_k", 0) for r in requests])
    with pytest.raises(RuntimeError, match="index 128 is out of bounds for dimension 1 with size 128"):
        logits.gather(1, (logits.size(1) - k).unsqueeze(1))
    k = torch.tensor([r.get("top_k", 1) for r in requests])
    assert logits.gather(1, (logits.size(1) - k).unsqueeze(1)).shape == (2, 1)
