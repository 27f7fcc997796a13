"""GL017: `x[torch.arange(B), idx]` with idx [B, 1] (one pick per row kept as a column) broadcasts the row
numbers [B] against [B, 1] to [B, B]: every row is read, or written, at every row's pick, silently. With the
column dropped each row pairs with its own pick."""
import pytest

from .conftest import codes

ONE_HOT = """
import torch

def to_one_hot(y, n_classes=2):
    n = y.shape[0]
    y_hot = torch.zeros(n, n_classes)
    {body}
    return y_hot

if __name__ == "__main__":
    y = torch.randint(0, 3, (12, 1)).float()
    print(to_one_hot(y, n_classes=3))
"""
BODIES = {
    "write": "y_hot[torch.arange(n), y.long(){tail}] = 1.0",
    "write through a temporary": "rows = torch.arange(n)\n    labels = y.long(){tail}\n    y_hot[rows, labels] = 1.0",
    "read": "y_hot = y_hot + 1\n    picked = y_hot[torch.arange(n), y.long(){tail}]\n    y_hot = picked",
    "write with a Python range": "y_hot[range(n), y.long(){tail}] = 1.0",
    "write with a listed range": "y_hot[list(range(n)), y.long(){tail}] = 1.0",
    "read with a Python range": "y_hot = y_hot + 1\n    picked = y_hot[range(n), y.long(){tail}]\n    y_hot = picked",
}


@pytest.mark.parametrize("body", sorted(BODIES))
@pytest.mark.parametrize("tail, fires", [("", True), (".squeeze(1)", False), ("[:, 0]", False)])
def test_row_numbers_beside_a_kept_column(body, tail, fires, torch):
    code = ONE_HOT.format(body=BODIES[body].format(tail=tail))
    assert (codes(code) == ["GL017"]) == fires, code
    scope = {"__name__": "one_hot"}
    exec(code, scope)
    y = torch.tensor([[0.0], [2.0], [1.0], [2.0]])
    out = scope["to_one_hot"](y, n_classes=3)
    if body.startswith("read"):
        assert out.shape == ((4, 4) if fires else (4,))
    else:  # one 1 per row only with the column dropped
        assert out.sum(1).tolist() == ([3.0] * 4 if fires else [1.0] * 4)


def test_greedy_actions_kept_as_a_column(torch):
    code = """
import torch
def greedy_log_probs(logits):
    actions = logits.argmax(dim=1, keepdim=True)
    log_probs = logits.log_softmax(dim=-1)
    return log_probs[torch.arange(logits.shape[0]), actions]

if __name__ == "__main__":
    print(greedy_log_probs(torch.randn(8, 5)))
"""
    assert codes(code) == ["GL017"]
    assert codes(code.replace("keepdim=True", "keepdim=False")) == []
    scope = {"__name__": "greedy"}
    exec(code, scope)
    assert scope["greedy_log_probs"](torch.randn(8, 5)).shape == (8, 8)


def test_one_row_is_not_reported():
    code = ONE_HOT.format(body=BODIES["write"].format(tail="")).replace("(12, 1)", "(1, 1)")
    assert codes(code) == []
