"""False findings of the nineteenth set of packages never linted before (benchmarks/README.md, "Nineteenth set"),
each as a small program in the style of the package's code: torch runs it as the package does, and the linter stays
silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

# One edge of a pose skeleton: each (source peak, destination peak) pair once (a meshgrid), both columns relabelled
# to dense slots by searchsorted() into their unique() values. Each column repeats alone; the pairs do not.
COST_MATRIX = """
import torch

def build_cost_matrix(src_peaks, dst_peaks, line_scores):
    grid_src, grid_dst = torch.meshgrid(src_peaks, dst_peaks, indexing="ij")
    pairs = torch.stack([grid_src.flatten(), grid_dst.flatten()], dim=1)
    src_ids = torch.unique(pairs[:, 0])
    dst_ids = torch.unique(pairs[:, 1])
    cost_matrix = torch.full((src_ids.size(0), dst_ids.size(0)), float("inf"))
    src_rows = torch.searchsorted(src_ids, pairs[:, 0].contiguous())
    dst_cols = torch.searchsorted(dst_ids, pairs[:, 1].contiguous())
    cost_matrix[src_rows, dst_cols] = -line_scores
    return cost_matrix, src_rows, dst_cols

if __name__ == "__main__":
    SCORES = torch.arange(1.0, 7.0)
    OUT = build_cost_matrix(torch.tensor([0, 1, 2]), torch.tensor([3, 4]), SCORES)
"""


def test_pairs_of_two_relabelled_columns_are_no_repeat(torch):
    scope = run_snippet(COST_MATRIX)
    cost, rows, cols = scope["OUT"]
    assert rows.unique().numel() < rows.numel() and cols.unique().numel() < cols.numel()  # each column repeats
    assert len(set(zip(rows.tolist(), cols.tolist()))) == rows.numel()  # no pair does
    assert sorted((-cost).flatten().tolist()) == scope["SCORES"].tolist()  # every score written, none dropped
    assert codes(COST_MATRIX) == []


def test_one_relabelled_column_beside_a_fixed_one_is_still_reported(torch):
    # the slots of one column beside a constant column: the pairs repeat as the column does, and writes are lost
    one = COST_MATRIX.replace("cost_matrix[src_rows, dst_cols] = -line_scores",
                              "cost_matrix[src_rows, 0] = -line_scores")
    cost, rows, _ = run_snippet(one)["OUT"]
    assert rows.unique().numel() == 3 and rows.numel() == 6
    assert torch.isfinite(cost).sum().item() == 3  # six scores, three kept
    assert "GL013" in codes(one)


# A count head's output, squeezed on the line whose comment still gives the shape before the squeeze.
COUNT_LOSS = """
import torch
import torch.nn.functional as F

class CountModel(torch.nn.Module):
    def __init__(self, n_filters: int = 8):
        super().__init__()
        self.conv = torch.nn.Conv1d(4, n_filters, 21, padding=10)
        self.linear = torch.nn.Linear(n_filters, 1)

    def forward(self, x):
        h = self.conv(x)                       # batch_size x n_filters x seq_length
        return h, self.linear(h.mean(dim=2))   # profile features, counts [batch_size, 1]

    def step(self, batch):
        x = batch['onehot_seq'] # batch_size x 4 x seq_length
        true_profile = batch['profile'] # batch_size x seq_length
        true_counts = torch.log1p(true_profile.sum(dim=-1))
        y_profile, y_count = self(x)
        y_count = SQUEEZE # batch_size x 1
        return F.mse_loss(y_count, true_counts), y_count

if __name__ == "__main__":
    torch.manual_seed(0)
    model = CountModel()
    OUT = model.step({'onehot_seq': torch.randn(8, 4, 100), 'profile': torch.rand(8, 100)})
"""


def test_a_comment_keeping_the_dim_a_squeeze_removes_describes_its_input(torch):
    import warnings

    code = COUNT_LOSS.replace("SQUEEZE", "y_count.squeeze(-1)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch warns when mse_loss broadcasts
        loss, y_count = run_snippet(code)["OUT"]
    assert y_count.shape == (8,) and loss.dim() == 0
    assert codes(code) == []


def test_the_unsqueezed_count_is_still_reported(torch):
    code = COUNT_LOSS.replace("SQUEEZE", "y_count")
    with pytest.warns(UserWarning, match="different to the input size"):
        run_snippet(code)
    assert "GL006" in codes(code)


def test_a_pair_of_unique_inverses_is_no_repeat_either(torch):
    code = COST_MATRIX.replace(
        "    src_rows = torch.searchsorted(src_ids, pairs[:, 0].contiguous())\n"
        "    dst_cols = torch.searchsorted(dst_ids, pairs[:, 1].contiguous())\n",
        "    _, src_rows = torch.unique(pairs[:, 0], return_inverse=True)\n"
        "    _, dst_cols = torch.unique(pairs[:, 1], return_inverse=True)\n")
    assert "return_inverse" in code
    scope = run_snippet(code)
    cost, rows, cols = scope["OUT"]
    assert len(set(zip(rows.tolist(), cols.tolist()))) == rows.numel()
    assert sorted((-cost).flatten().tolist()) == scope["SCORES"].tolist()
    assert codes(code) == []
    # one inverse beside a fixed column: pairs repeat, and three of the six scores are lost
    one = code.replace("cost_matrix[src_rows, dst_cols] = -line_scores", "cost_matrix[src_rows, 0] = -line_scores")
    assert torch.isfinite(run_snippet(one)["OUT"][0]).sum().item() == 3
    assert "GL013" in codes(one)
