"""A method sees what another method of the same instance stored on self before calling it: `fit` sets
`self.centers`, then `self._assign(X)` reads those centers, also on the first pass of a loop that stores them again."""
import pytest

from .conftest import codes
from .snippets import run_program

PROGRAM = """
import torch


class KMeans:
    def __init__(self, num_clusters, num_iters=3):
        self.num_clusters = num_clusters
        self.num_iters = num_iters
        self.centers = None

    def _assign(self, X):
        return torch.cdist(X, self.centers).argmin(dim=1)

    def _update(self, X, assignment):
        k = self.num_clusters
        counts = torch.zeros(k).scatter_add_(0, assignment, torch.ones(k))
        sums = torch.zeros(k, X.size(1)).index_add_(0, assignment, X)
        return sums / counts.clamp(min=1).unsqueeze(1)

    def fit(self, X):
        self.centers = X[torch.randperm(X.size(0))[: self.num_clusters]].clone()
        for _ in range(self.num_iters):
            self.centers = self._update(X, self._assign(X))
        return self


if __name__ == "__main__":
    torch.manual_seed(0)
    RESULT = KMeans(num_clusters=3).fit(torch.randn(30, 2)).centers
"""


def test_centers_stored_by_fit_reach_the_assignment(torch):
    """30 assignments scattered with 3 ones: the index is larger than src, and torch raises."""
    assert codes(PROGRAM) == ["GL003"]
    with pytest.raises(RuntimeError, match="no larger"):
        run_program(PROGRAM)
    fixed = PROGRAM.replace("torch.ones(k))", "torch.ones(assignment.numel()))")
    assert codes(fixed) == []
    assert run_program(fixed).shape == (3, 2)
