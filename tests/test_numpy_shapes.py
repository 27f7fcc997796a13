"""NumPy arrays carry the shape their constructor was given (`rng.integers(0, n, size=(h, w))`,
`np.zeros((h, w))`, `np.random.rand(n, d)`), through astype, reshape/flatten and row reads, into the tensor
torch.from_numpy makes. A uint8 label map decoded by NumPy then reaches index_put_ as a mask of its real
size. Each claim is run in torch."""
import textwrap

import pytest

from .conftest import codes, lint
from .snippets import run_snippet

PROGRAM = '''
import numpy as np
import torch


class ClassCounter:
    def __init__(self, num_classes):
        self.counts = torch.zeros(num_classes, dtype=torch.float64)

    def update(self, label_map):
        labels = label_map.reshape(-1){CAST}
        self.counts.index_put_((labels,), torch.ones(labels.numel(), dtype=torch.float64), accumulate=True)


def decode(seed, height, width, num_classes):
    rng = np.random.default_rng(seed)
    return rng.integers(0, num_classes, size=(height, width)).astype(np.uint8)


if __name__ == "__main__":
    counter = ClassCounter(6)
    counter.update(torch.from_numpy(decode(0, 24, 32, 6)))
'''


def _found(cast: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(PROGRAM.replace("{CAST}", cast)))]


def test_a_uint8_label_map_from_numpy_is_a_mask_of_its_size(torch):
    assert _found("") == [("GL008", 12)]
    import numpy as np
    labels = torch.from_numpy(np.random.default_rng(0).integers(0, 6, size=(24, 32)).astype(np.uint8))
    assert labels.shape == (24, 32) and labels.dtype == torch.uint8
    with pytest.raises(IndexError, match="shape of the mask"):
        torch.zeros(6).index_put_((labels.reshape(-1),), torch.ones(768), accumulate=True)


def test_the_int64_labels_are_silent():
    assert _found(".long()") == []


def test_shapes_through_reshape_and_rows():
    code = '''
import numpy as np
import torch

def pick(w):
    # w: [5, 3]
    a = np.zeros((4, 6), dtype=np.int64)
    rows = torch.from_numpy(a.reshape(3, -1)[0])
    return w.gather(0, rows)
'''
    assert [f.code for f in lint(textwrap.dedent(code))] == ["GL001"]  # an [8] index for a 2-d input


def test_the_reshaped_row_is_eight_long_in_torch(torch):
    import numpy as np
    rows = torch.from_numpy(np.zeros((4, 6), dtype=np.int64).reshape(3, -1)[0])
    assert rows.shape == (8,)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(5, 3).gather(0, rows)


QUADRUPLES = '''
import io
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

TEXT = "0 1 3\\n2 0 1\\n3 2 0\\n1 1 2\\n"

class Quadruples(Dataset):
    def __init__(self, text):
        self.data = np.loadtxt(io.StringIO(text){DTYPE})

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]

def score(table, quads):
    return table.index_select(0, quads[:, 0])

if __name__ == "__main__":
    table = torch.randn(5, 8)
    for quads in DataLoader(Quadruples(TEXT), batch_size=2):
        out = score(table, quads)
'''


def test_numbers_read_from_text_are_float64_ids(torch):
    code = QUADRUPLES.format(DTYPE="")
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="Expected .*Long|index_select"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


def test_numbers_read_as_int64_are_silent(torch):
    code = QUADRUPLES.format(DTYPE=", dtype=np.int64")
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_unsigned_numpy_labels_are_no_index_dtype(dtype, torch):
    code = f'''
import numpy as np
import torch

def pick(logprobs, target):
    return logprobs.gather(2, target.unsqueeze(2)).squeeze(2)

if __name__ == "__main__":
    labels = np.zeros((2, 5), dtype="{dtype}")
    out = pick(torch.randn(2, 5, 7).log_softmax(-1), torch.from_numpy(labels))
'''
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):
        exec(code, {"__name__": "__main__"})
    fixed = code.replace("torch.from_numpy(labels)", "torch.from_numpy(labels.astype(np.int64))")
    assert codes(fixed) == []
    exec(fixed, {"__name__": "__main__"})


# numpy's makers take a dtype by position too: `np.zeros(n, np.int64)` is an int64 array, and the tensor
# torch.as_tensor makes of it indexes fine (aniposelib's soft-DTW band cells)
PREDECESSORS = '''
import numpy as np
import torch


def predecessor_index(rows, cols, lo):
    idx = np.zeros(len(rows), {DTYPE})
    inside = (rows - 1 >= 0) & (cols - 1 >= 0)
    idx[inside] = rows[inside] - lo + 2
    return torch.as_tensor(idx)


def soft_min_step(costs, rows, cols, gamma=0.1):
    head = torch.tensor([1e10, 0.0], dtype=costs.dtype)
    i_d = predecessor_index(rows, cols, 0)
    prev = torch.cat([head, costs])[i_d[0:len(rows)]]
    return costs - gamma * torch.logsumexp(-prev[None] / gamma, dim=0)


if __name__ == "__main__":
    out = soft_min_step(torch.rand(50, dtype=torch.float64), np.arange(50), np.arange(50))
'''


@pytest.mark.parametrize("dtype", ["np.int64", "dtype=np.int64", "'int64'", "int"])
def test_a_dtype_given_by_position_is_read(dtype, torch):
    code = PREDECESSORS.replace("{DTYPE}", dtype)
    assert codes(code) == []
    run_snippet(code)


def test_without_a_dtype_the_array_is_float64_and_torch_refuses_it(torch):
    code = PREDECESSORS.replace(", {DTYPE})", ")")
    assert "GL008" in codes(code)
    with pytest.raises(IndexError, match="tensors used as indices must be long"):
        run_snippet(code)
