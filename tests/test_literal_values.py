"""Ids written out in the code, of any rank, hold their largest value: `table[ids]` with one of them past the
table raises. The values are known through names, Python lists joined with `+`, a helper or a method that
returns a list, and a class attribute can size the table."""
import pytest

from .conftest import codes
from .snippets import call_run as run

SPECIAL_IDS_PAST_THE_TABLE = """
import torch

class ChatTokenizer:
    vocab_size = 50  # the base pieces; the chat tokens come after them

    def encode_chat(self, ids):
        return [50, 52] + ids + [51]

class TagLookup:
    def __init__(self, tokenizer):
        self.tag_of = torch.zeros(tokenizer.vocab_size, dtype=torch.long)  # [vocab]

    def __call__(self, input_ids):
        return self.tag_of[input_ids]

def run():
    tok = ChatTokenizer()
    lookup = TagLookup(tok)
    batch = torch.tensor([tok.encode_chat([3, 17, 8]), tok.encode_chat([9, 9, 12])])
    return lookup(batch)

if __name__ == "__main__":
    run()
"""

# the same program with the table sized for every id the tokenizer makes
SIZED_FOR_THE_CHAT_TOKENS = SPECIAL_IDS_PAST_THE_TABLE.replace(
    "torch.zeros(tokenizer.vocab_size,", "torch.zeros(tokenizer.vocab_size + 3,")


def test_ids_past_the_table_raise_in_torch_and_are_reported(torch):
    with pytest.raises(IndexError, match="out of bounds"):
        run(SPECIAL_IDS_PAST_THE_TABLE)
    assert "GL011" in codes(SPECIAL_IDS_PAST_THE_TABLE)


def test_a_table_with_room_for_them_is_silent(torch):
    assert run(SIZED_FOR_THE_CHAT_TOKENS).shape == (2, 6)
    assert codes(SIZED_FOR_THE_CHAT_TOKENS) == []


@pytest.mark.parametrize("ids", [
    "torch.tensor([[50, 52, 3, 51]])",  # written out, two dims
    "torch.tensor([50, 52] + [3, 17] + [51])",  # a Python list joined
    "torch.tensor(special + [3, 17])",  # through a name
])
def test_written_ids_in_a_function(torch, ids):
    program = f"""
import torch

def run():
    special = [50, 52]
    table = torch.randn(50, 4)
    ids = {ids}
    return table[ids]

if __name__ == "__main__":
    run()
"""
    with pytest.raises(IndexError):
        run(program)
    assert "GL011" in codes(program)
    fitting = program.replace("torch.randn(50, 4)", "torch.randn(53, 4)")
    assert run(fitting).shape[-1] == 4
    assert codes(fitting) == []


def test_a_slice_of_written_ids_may_leave_the_largest_out(torch):
    program = """
import torch

def run():
    table = torch.randn(50, 4)
    ids = torch.tensor([3, 17, 8, 52])
    return table[ids[:3]]

if __name__ == "__main__":
    run()
"""
    assert run(program).shape == (3, 4)
    assert codes(program) == []


def test_a_class_attribute_rebound_by_a_method_is_not_a_size(torch):
    program = """
import torch

class Vocab:
    size = 50

    def grow(self, n):
        self.size = self.size + n

def run():
    vocab = Vocab()
    vocab.grow(3)
    table = torch.randn(vocab.size, 4)
    return table[torch.tensor([50, 52])]

if __name__ == "__main__":
    run()
"""
    assert run(program).shape == (2, 4)
    assert codes(program) == []
