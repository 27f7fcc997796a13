"""GL015 for float32: integers survive a float32 round trip exactly only up to 2**24. Ids stored in a float32
row of a dataset (`torch.tensor([user, item, rating], dtype=torch.float32)`) and read back with `.long()`
come back rounded wherever the table they index has more rows than that. Checked in torch."""
import textwrap

import pytest

from .conftest import codes

RATINGS = """
import torch
from torch.utils.data import Dataset, DataLoader

class Ratings(Dataset):
    def __init__(self, triples):
        self.triples = triples

    def __len__(self):
        return len(self.triples)

    def __getitem__(self, i):
        user, item, rating = self.triples[i]
        return torch.tensor([user, item, rating], dtype=torch.{DTYPE})

def predict(user_bias, batch):
    return user_bias.index_select(0, batch[:, 0].long())

if __name__ == "__main__":
    users = {USERS}
    user_bias = torch.arange(users, dtype=torch.float32) % 7
    triples = [(users - 183, 3, 4.0), (12, 1, 5.0)]
    batch = next(iter(DataLoader(Ratings(triples), batch_size=2)))
    got = predict(user_bias, batch)
    same = got.tolist() == [float((users - 183) % 7), 5.0]
"""


def test_large_ids_round_through_float32(torch):
    code = RATINGS.format(DTYPE="float32", USERS=16_777_400)
    assert codes(code) == ["GL015"]
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)
    assert scope["same"] is False  # id 16777217 comes back as 16777216


@pytest.mark.parametrize("dtype, users", [("float32", 1000), ("float64", 16_777_400)])
def test_small_tables_or_float64_rows_are_silent(dtype, users, torch):
    code = RATINGS.format(DTYPE=dtype, USERS=users)
    assert codes(code) == []
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)


# token ids padded into a float16 buffer by a collate function, cast back before the embedding
HALF_BUFFER = """
import torch
import torch.nn as nn

def collate(samples, pad_id=0):
    ids = torch.full((len(samples), 3), pad_id, dtype=torch.{DTYPE})
    for row, s in enumerate(samples):
        ids[row, :len(s)] = torch.as_tensor(s, dtype=ids.dtype)
    return ids

def embed(table, samples):
    return table(collate(samples).long())

if __name__ == "__main__":
    table = nn.Embedding(32000, 4)
    samples = [[15142, 30414], [5]]
    out = embed(table, samples)
    read = collate(samples).long()
"""


def test_ids_through_a_half_buffer_into_a_larger_table(torch):
    from .snippets import run_snippet
    code = HALF_BUFFER.replace("{DTYPE}", "float16")
    assert run_snippet(code)["read"][0].tolist() == [15144, 30416, 0]  # rounded to the nearest float16
    assert codes(code) == ["GL015"]
    exact = HALF_BUFFER.replace("{DTYPE}", "long")
    assert run_snippet(exact)["read"][0].tolist() == [15142, 30414, 0]
    assert codes(exact) == []
