"""False positives seen on real code outside the bundled corpora, each as a small program in the
same form: torch runs it and its loop reference agrees, and the linter stays silent. Beside each, the
buggy form the rule is for, still reported and shown wrong in torch."""
from .conftest import codes
from .snippets import run_snippet

# A sparse-matrix test counts entries one (row, col) pair per statement: scalar picks never repeat
# within one write, and the loop adds them in turn.
COUNT_ONE_PAIR_PER_STATEMENT = """
import torch

def coalesce_counts(row, col, num_rows, num_cols):
    M = torch.zeros(num_rows, num_cols)
    for i in range(20):
        M[row[i], col[i]] += 1
    return M

if __name__ == "__main__":
    row = torch.randint(0, 5, (20,))
    col = torch.randint(0, 4, (20,))
    counts = coalesce_counts(row, col, 5, 4)
    ref = torch.zeros(5, 4)
    for r, c in zip(row.tolist(), col.tolist()):
        ref[r, c] += 1
    assert torch.equal(counts, ref)
"""

COUNT_ALL_PAIRS_AT_ONCE = """
import torch

def coalesce_counts(row, col, num_rows, num_cols):
    M = torch.zeros(num_rows, num_cols)
    M[row, col] += 1
    return M

if __name__ == "__main__":
    row = torch.randint(0, 2, (20,))
    col = torch.randint(0, 2, (20,))
    counts = coalesce_counts(row, col, 2, 2)
"""

# A pipeline unpacks packed latents into their (h, w) grid: the flattened coordinates of the tokens
# are distinct, whatever the `_ids` in their names suggests.
UNPACK_BY_GRID_COORDINATES = """
import torch

def unpack_latents_with_ids(x, x_ids):
    out_list = []
    for data, pos in zip(x, x_ids):
        _, ch = data.shape
        h_ids = pos[:, 1].to(torch.int64)
        w_ids = pos[:, 2].to(torch.int64)
        h = torch.max(h_ids) + 1
        w = torch.max(w_ids) + 1
        flat_ids = h_ids * w + w_ids
        out = torch.zeros((h * w, ch), dtype=data.dtype)
        out.scatter_(0, flat_ids.unsqueeze(1).expand(-1, ch), data)
        out_list.append(out.view(h, w, ch).permute(2, 0, 1))
    return torch.stack(out_list, dim=0)

if __name__ == "__main__":
    B, H, W, C = 2, 3, 4, 5
    hh, ww = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    coords = torch.stack([torch.zeros(H * W), hh.flatten(), ww.flatten(), torch.zeros(H * W)], dim=-1)
    perm = torch.randperm(H * W)
    x = torch.randn(B, H * W, C)
    x_ids = coords[perm].unsqueeze(0).expand(B, -1, -1)
    got = unpack_latents_with_ids(x[:, perm], x_ids)
    ref = torch.zeros(B, C, H, W)
    for b in range(B):
        for t in range(H * W):
            ref[b, :, t // W, t % W] = x[b, t]
    assert torch.equal(got, ref)
"""


def test_one_pair_per_statement_is_silent(torch):
    run_snippet(COUNT_ONE_PAIR_PER_STATEMENT)
    assert codes(COUNT_ONE_PAIR_PER_STATEMENT) == []


def test_all_pairs_at_once_still_reported(torch):
    # 20 pairs on a 2 x 2 grid must repeat; indexed += counts each distinct pair once
    counts = run_snippet(COUNT_ALL_PAIRS_AT_ONCE)["counts"]
    assert counts.sum().item() <= 4 < 20
    assert codes(COUNT_ALL_PAIRS_AT_ONCE) == ["GL013"]


def test_grid_coordinates_named_ids_are_silent(torch):
    run_snippet(UNPACK_BY_GRID_COORDINATES)
    assert codes(UNPACK_BY_GRID_COORDINATES) == []


def test_data_ids_with_a_prefix_still_repeat():
    # `src_ids` are token ids of a source sentence: the name still says they can repeat
    code = """
import torch

def copy_scores(copy, src_ids):
    # copy: [B, L]  src_ids: [B, L]
    out = torch.zeros(copy.size(0), 50)
    return out.scatter(1, src_ids, copy)
"""
    assert codes(code) == ["GL013"]


# An optimizer test runs one training step for several embedding widths, 1 among them: the single
# class is the caller's size, and with all-zero labels torch computes a loss of 0 without raising.
ONE_CLASS_ONLY_FOR_ONE_CALLER = """
import torch
import torch.nn.functional as F

def sparse_step(emb_dim):
    emb = torch.nn.Embedding(10, emb_dim)
    idx = torch.randint(0, 10, size=(4,))
    labels = torch.zeros((4,)).long()
    loss = F.cross_entropy(emb(idx), labels)
    loss.backward()
    return loss

if __name__ == "__main__":
    assert sparse_step(1).item() == 0.0
    assert sparse_step(4).item() > 0.0
    sparse_step(101)
"""

ONE_CLASS_IN_THE_CODE = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Scorer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.head = nn.Linear(d, 1)

    def forward(self, x, labels):
        return F.cross_entropy(self.head(x), labels)

if __name__ == "__main__":
    scorer = Scorer(8)
    loss = scorer(torch.randn(4, 8), torch.zeros(4, dtype=torch.long))
"""


def test_one_class_from_one_callers_size_is_silent(torch):
    run_snippet(ONE_CLASS_ONLY_FOR_ONE_CALLER)
    assert codes(ONE_CLASS_ONLY_FOR_ONE_CALLER) == []


def test_one_class_built_into_the_model_still_reported(torch):
    assert run_snippet(ONE_CLASS_IN_THE_CODE)["loss"].item() == 0.0  # nothing is ever learnt
    assert codes(ONE_CLASS_IN_THE_CODE) == ["GL011"]
