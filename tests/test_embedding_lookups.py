"""Lookups into embedding tables and other id tables: what the ids are (dtype) and how large they can
get (an id equal to the row count, tokens added after the table was sized, positions past a position
table). Each snippet is a script with a driver, as the checks need the sizes its driver passes; each
finding's claim is run in torch here."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


EMBEDDING_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int"


# ----- a comparison mask as ids ---------------------------------------------------------------

BOOL_SEGMENTS_MODULE = """
import torch
import torch.nn as nn


class TaggedEncoder(nn.Module):
    def __init__(self, n_symbols, width, first_tag):
        super().__init__()
        self.first_tag = first_tag
        self.symbols = nn.Embedding(n_symbols, width)
        self.kinds = nn.Embedding(2, width)

    def forward(self, tokens):
        is_tag = tokens >= self.first_tag
        return self.symbols(tokens) + self.kinds(is_tag)


if __name__ == "__main__":
    vocab = ["<pad>", "a", "b", "c", "TAG1", "TAG2"]
    enc = TaggedEncoder(len(vocab), 4, 4)
    out = enc(torch.tensor([[1, 2, 4], [3, 5, 0]]))
"""


def test_bool_mask_into_an_embedding_layer(torch):
    assert findings(BOOL_SEGMENTS_MODULE) == [(15, "GL008")]
    with pytest.raises(RuntimeError, match="Long, Int; but got CPUBoolType instead"):
        run(BOOL_SEGMENTS_MODULE)


def test_bool_mask_fixed_with_long_is_silent(torch):
    fixed = BOOL_SEGMENTS_MODULE.replace("self.kinds(is_tag)", "self.kinds(is_tag.long())")
    assert findings(fixed) == []
    run(fixed)


def test_bool_mask_into_functional_embedding_from_a_helper(torch):
    code = """
    import torch
    import torch.nn.functional as F


    def side_features(ids, table, boundary):
        side = ids < boundary
        return F.embedding(side, table)


    if __name__ == "__main__":
        table = torch.randn(2, 3)
        feats = side_features(torch.tensor([0, 5, 2, 7]), table, 4)
    """
    assert findings(code) == [(8, "GL008")]
    with pytest.raises(RuntimeError, match=EMBEDDING_ERROR):
        run(code)


def test_float_ids_into_a_local_embedding(torch):
    code = """
    import torch
    import torch.nn as nn

    if __name__ == "__main__":
        buckets = nn.Embedding(10, 4)
        ages = torch.tensor([3.0, 17.0, 42.0])
        bucket_ids = (ages / 10).floor()
        vecs = buckets(bucket_ids)
    """
    assert findings(code) == [(9, "GL008")]
    with pytest.raises(RuntimeError, match=EMBEDDING_ERROR):
        run(code)


def test_mask_used_as_a_mask_not_ids_is_silent():
    code = """
    import torch
    import torch.nn as nn


    class Masked(nn.Module):
        def __init__(self, n, d):
            super().__init__()
            self.emb = nn.Embedding(n, d)

        def forward(self, ids, pad_id):
            keep = ids != pad_id
            return self.emb(ids) * keep.unsqueeze(-1)


    if __name__ == "__main__":
        out = Masked(8, 3)(torch.tensor([[1, 2, 0]]), 0)
    """
    assert findings(code) == []
