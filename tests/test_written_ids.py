"""Raw ids written in a script's records, against a table sized by the count of distinct ids
(`len(set(...))`, `len(sorted({...}))`): the ids themselves reach past the count. Each claim is run in
torch."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


RATINGS = """
import torch
import torch.nn as nn


class UserBias(nn.Module):
    def __init__(self, num_users):
        super().__init__()
        self.bias = nn.Embedding(num_users, 1)

    def forward(self, users):
        return self.bias(users).squeeze(-1)


def to_tensors(interactions):
    users, items = torch.tensor(interactions).T
    return users, items


if __name__ == "__main__":
    interactions = [(17, 3), (42, 5), (17, 9), (8, 3)]
    num_users = len({u for u, _ in interactions})
    users, items = to_tensors(interactions)
    print(UserBias(num_users)(users))
"""


def test_raw_user_ids_looked_up_in_a_table_of_distinct_users(torch):
    assert findings(RATINGS) == [(12, "GL011")]
    scope = run(RATINGS)
    users, _ = scope["to_tensors"]([(17, 3), (42, 5), (17, 9), (8, 3)])
    with pytest.raises(IndexError, match="index out of range in self"):
        scope["UserBias"](3)(users)


def test_remapped_user_ids_stay_silent(torch):
    code = RATINGS.replace("users, items = to_tensors(interactions)", """index = {u: i for i, u in enumerate(sorted({u for u, _ in interactions}))}
    users, items = to_tensors([(index[u], i) for u, i in interactions])""")
    assert findings(code) == []
    scope = run(code)
    users, _ = scope["to_tensors"]([(1, 3), (2, 5), (1, 9), (0, 3)])
    scope["UserBias"](3)(users)


def test_set_and_sorted_of_written_ints():
    from gather_lint.static.literal_sets import call
    from gather_lint.static.values import DimVal, SeqVal

    ids = SeqVal((DimVal(7), DimVal(4), DimVal(7)))
    assert [i.dim for i in call("set", [ids], {}).items] == [7, 4]
    assert [i.dim for i in call("sorted", [ids], {}).items] == [4, 7, 7]
    assert call("set", [SeqVal((DimVal(7), None))], {}) is None  # an unknown item: no count
