"""GL035: `topk(k, dim)` / `kthvalue(k, dim)` with k larger than the dim holds. The same mistake written in the
forms real code uses (method and torch function, k by keyword or position, sizes from a driver, a config record
or a docstring, names that differ by a constant) is reported; a k capped at the size, a k that fits, or a size the
data decides stays silent. Torch raises on each reported form and runs each silent one."""
import textwrap

import pytest

from .conftest import lint
from .snippets import reported_and_raised, silent_and_run

torch = pytest.importorskip("torch")

DRIVER = """
import torch

def patches(points, centers, point_limit):
    dist = torch.cdist(centers, points)
    return dist.topk({k}, dim=1, largest=False).indices

if __name__ == "__main__":
    idx = patches(torch.rand(40, 3), torch.rand(8, 3), 64)
"""

FUNCTIONAL = """
import torch

def mine(scores, range_max, max_positives):
    return torch.topk(scores, {k}, dim=1)

if __name__ == "__main__":
    out = mine(torch.rand(4, 6), 20, 1)
"""

RECORD = """
import torch
from dataclasses import dataclass

@dataclass
class Config:
    num_selected: int = 4
    block_size: int = 16

def select(cfg: Config, importance):
    # importance: [b, h, n, blocks]
    return importance.topk({k}, dim=-1).indices

if __name__ == "__main__":
    cfg = Config()
    out = select(cfg, torch.rand(2, 2, 5, 2))
"""

NAMES = """
import torch

def median_of_window(x, w):
    # x: [B, w]
    return x.kthvalue({k}, dim=1).values

if __name__ == "__main__":
    out = median_of_window(torch.rand(3, 5), 5)
"""

FORMS = {
    "driver sizes, keyword k": (DRIVER, "point_limit", "min(point_limit, dist.size(1))"),
    "torch function, positional k": (FUNCTIONAL, "range_max + max_positives",
                                     "min(range_max + max_positives, scores.size(1))"),
    "config record": (RECORD, "cfg.num_selected", "min(cfg.num_selected, importance.size(-1))"),
    "kthvalue one past the window": (NAMES, "w + 1", "w"),
}


@pytest.mark.parametrize("name", list(FORMS))
def test_k_past_the_size_is_reported_and_torch_raises(name):
    program, bad, _ = FORMS[name]
    code = textwrap.dedent(program.replace("{k}", bad))
    reported_and_raised(lint(code), code, ["GL035"], RuntimeError, "k out of range")


@pytest.mark.parametrize("name", list(FORMS))
def test_k_capped_at_the_size_is_silent_and_torch_runs_it(name):
    program, _, good = FORMS[name]
    code = textwrap.dedent(program.replace("{k}", good))
    silent_and_run(lint(code), code)


def test_a_size_the_data_decides_stays_silent():
    code = """
    import torch

    def nearest(dist, k):
        # dist: [M, N]
        return dist.topk(k, dim=1).indices

    def run(points, centers):
        return nearest(torch.cdist(centers, points), 16)
    """
    assert lint(code) == []


def test_the_message_names_k_the_dim_and_its_size():
    (finding,) = lint(DRIVER.replace("{k}", "point_limit"))
    assert "k = 64" in finding.message and "dim 1" in finding.message and "holds 40" in finding.message
    assert "selected index k out of range" in finding.message
