"""GL013's evidence that positions repeat comes from how the values were made: a literal list naming one id
twice (an id-like name such as `word_ids` must not hide it), ids copied by repeat_interleave/repeat (each
token once per chosen expert), also where the index reaches a helper that writes with it."""
import textwrap

import pytest

from .conftest import codes

POOL = """
import torch

def pool(feats, word_ids, n):
    words = feats.new_zeros(n, feats.size(-1))
    {WRITE}
    return words

if __name__ == "__main__":
    word_ids = torch.tensor({IDS})
    feats = torch.randn(len(word_ids), 4)
    words = pool(feats, word_ids, 5)
    expected = torch.zeros(5, 4).index_add_(0, word_ids, feats)
    same = torch.allclose(words, expected)
"""

WRITES = {
    "index_put": "words = words.index_put((word_ids,), feats)",
    "index_put_": "words.index_put_((word_ids,), feats)",
}


def run(code):
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)
    return scope["same"]


@pytest.mark.parametrize("write", sorted(WRITES))
def test_a_literal_naming_an_id_twice_repeats_whatever_the_name(write, torch):
    code = POOL.format(WRITE=WRITES[write], IDS="[0, 0, 0, 1, 2, 3, 3, 4]")
    assert codes(code) == ["GL013"]
    assert run(code) is False  # the pieces of word 0 and word 3 are not summed: one write is kept
    # the same write in the driver itself, where the literal is bound to the id-like name
    inline = code.replace("    words = pool(feats, word_ids, 5)", "    words = feats.new_zeros(5, 4)\n    " + WRITES[write])
    assert codes(inline) == ["GL013"]


@pytest.mark.parametrize("write", sorted(WRITES))
def test_distinct_literal_ids_and_accumulation_are_silent(write, torch):
    distinct = POOL.format(WRITE=WRITES[write], IDS="[0, 1, 2, 3, 4]")
    assert codes(distinct) == []
    assert run(distinct) is True
    summed = POOL.format(WRITE=WRITES[write].replace("feats)", "feats, accumulate=True)"), IDS="[0, 0, 0, 1, 2, 3, 3, 4]")
    assert codes(summed) == []
    assert run(summed) is True


COMBINE = """
import torch

def index_add_rows(out, index, src):
    out = out.clone()
    {WRITE}
    return out

def combine(x, k):
    token_of_row = torch.arange(x.shape[0]).{COPY}
    rows = x[token_of_row] * 2
    return index_add_rows(torch.zeros_like(x), token_of_row, rows)

if __name__ == "__main__":
    x = torch.randn(6, 3)
    same = torch.allclose(combine(x, {K}), 2 * {K} * x)
"""


@pytest.mark.parametrize("copy", ["repeat_interleave(k)", "repeat(k)", "repeat_interleave(repeats=k)"])
def test_ids_copied_k_times_repeat_in_a_read_modify_write(copy, torch):
    code = COMBINE.format(WRITE="out[index] = out[index] + src", COPY=copy, K=2)
    assert codes(code) == ["GL013"]
    assert run(code) is False  # each token keeps one of its k rows instead of their sum


def test_accumulating_or_uncopied_writes_are_silent(torch):
    fixed = COMBINE.format(WRITE="out.index_add_(0, index, src)", COPY="repeat_interleave(k)", K=2)
    assert codes(fixed) == []
    assert run(fixed) is True
    once = COMBINE.format(WRITE="out[index] = out[index] + src", COPY="repeat_interleave(1)", K=1)
    assert codes(once) == []
    assert run(once) is True


PHEROMONE = """
import torch

def batch_rows(batch_size, n):
    rows = torch.arange(batch_size)
    return rows.unsqueeze(1).repeat(1, n).view(-1)

def deposit(pheromone, actions, reward):
    delta = torch.zeros_like(pheromone)
    b, n = actions.shape[0], actions.shape[1] - 1
    rows = batch_rows(b, n)
    delta[rows, actions[:, :-1].flatten(), actions[:, 1:].flatten()] += reward[rows]
    return delta

if __name__ == "__main__":
    tours = torch.stack([torch.randperm(6) for _ in range(3)])
    reward = torch.rand(3)
    delta = deposit(torch.zeros(3, 6, 6), tours, reward)
    expected = torch.zeros(3, 6, 6)
    for b in range(3):
        for a, c in zip(tours[b, :-1].tolist(), tours[b, 1:].tolist()):
            expected[b, a, c] += reward[b]
    same = torch.allclose(delta, expected)
"""


def test_copied_row_numbers_beside_per_row_ids_are_group_numbers(torch):
    # rl4co's ant system: the batch numbers repeat once per edge of a tour, and tell the tours apart; the
    # edges of one tour are distinct, so nothing collides (one component alone still reports: above)
    assert codes(PHEROMONE) == []
    assert run(PHEROMONE) is True


# slots of distinct rows, widened to every column: `.unsqueeze(1).repeat(1, D)` holds expand's values
WIDENED = """
import torch

def place(tokens, slots, num_slots):
    index = slots.unsqueeze(1).repeat({COUNTS})
    out = torch.zeros(num_slots, tokens.size(1))
    out.scatter_(0, index, tokens.repeat({TOKEN_COUNTS}))
    return out

if __name__ == "__main__":
    tokens = torch.randn(4, 3)
    slots = torch.randperm(6)[:4]
    out = place(tokens, slots, 6)
    expected = torch.zeros(6, 3).index_add_(0, slots.repeat({SLOT_COUNTS}), tokens.repeat({TOKEN_COUNTS}))
    same = torch.allclose(out, expected)
"""


def test_a_repeat_across_columns_is_an_expand_not_a_repeat(torch):
    code = WIDENED.format(COUNTS="(1, 3)", TOKEN_COUNTS="1, 1", SLOT_COUNTS="1")
    assert run(code)  # every slot written once
    assert codes(code) == []


def test_a_repeat_along_the_written_dim_still_repeats(torch):
    code = WIDENED.format(COUNTS="(2, 3)", TOKEN_COUNTS="2, 1", SLOT_COUNTS="2")
    assert not run(code)  # each slot written twice: one of the two writes kept
    assert codes(code) == ["GL013"]


# interaction records written out in a driver: the pair (0, 1) comes twice in one, every pair once in the other
RECORDS = """
import torch

def collate(records):
    src = torch.tensor([r[0] for r in records])
    dst = torch.tensor([r[1] for r in records])
    w = torch.tensor([r[2] for r in records])
    return src, dst, w

def dense(src, dst, w, n):
    adj = torch.zeros(n, n)
    adj[src, dst] = w
    return adj

if __name__ == "__main__":
    src, dst, w = collate(RECORDS)
    adj = dense(src, dst, w, 3)
    same = torch.allclose(adj, torch.zeros(3, 3).index_put_((src, dst), w, accumulate=True))
"""


def test_written_out_pairs_that_repeat_are_reported(torch):
    code = RECORDS.replace("RECORDS", "[(0, 1, 1.0), (0, 1, 2.0), (2, 0, 0.5)]")
    assert not run(code)  # adj[0, 1] keeps one of 1.0 and 2.0
    assert codes(code) == ["GL013"]


def test_written_out_pairs_each_once_are_silent_though_each_row_repeats(torch):
    code = RECORDS.replace("RECORDS", "[(0, 1, 1.0), (0, 2, 2.0), (1, 2, 0.5), (2, 0, 1.0)]")
    assert run(code)
    assert codes(code) == []
