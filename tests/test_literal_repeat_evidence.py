"""GL013: a literal list naming one id twice is how the values were made; an id-like name (`word_ids`) must
not hide that evidence, neither where the list is written nor in a helper it is passed to."""
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
