"""Paths padded after their real entries (`path + [-1] * (width - len(path))`) and cut to a length the data
decides (`paths[best][:accepted]`) no longer certainly hold the padding: such a cut is how the real entries are
taken. Read whole, the padding reaches index_select, and torch raises. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

PATHS = """
import torch

def accept(input_ids, paths, draft):
    width = max(len(p) for p in paths)
    search_path = torch.tensor([p + [-1] * (width - len(p)) for p in paths], dtype=torch.long)
    guess = input_ids[0][search_path]
    guess[search_path == -1] = -100
    reward = torch.cumprod(guess[:, 1:].eq(draft[0][search_path][:, :-1]), dim=-1).sum(dim=-1)
    accept_len = 1 + reward.max()
    best = torch.argmax(reward, dim=-1)
    index_path = READ
    return torch.index_select(input_ids, index=index_path, dim=1)

if __name__ == "__main__":
    ids = torch.tensor([[5, 7, 9, 7, 2]])
    OUT = accept(ids, [[0, 1, 2], [0, 3], [0, 1, 4]], torch.tensor([[7, 9, 2, 3, 4]]))
"""


def test_a_padded_path_cut_to_its_accepted_length_is_not_reported(torch):
    program = PATHS.replace("READ", "search_path[best][:accept_len]")
    assert lint(program) == []
    assert run_snippet(program)["OUT"].tolist() == [[5, 7, 9]]


def test_the_whole_padded_path_is_reported(torch):
    program = PATHS.replace("READ", "search_path[1]")
    assert [(f.code, f.line) for f in lint(program)] == [("GL011", 13)]
    with pytest.raises(RuntimeError, match="out of DATA bounds, id=-1"):
        run_snippet(program)
