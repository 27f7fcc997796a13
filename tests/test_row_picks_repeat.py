"""Positions picked per row repeat across rows: `max(dim)`/`min(dim)` indices (one pick per row, as argmax's),
and topk/sort indices once the rows are joined (`.view(-1)`). Each row's picks are distinct, so a write along
the picked dim stays silent. Every claim is run in torch."""
from .conftest import codes, lint
from .snippets import call_run

CONFUSION = """
import torch

def confusion(scores, target):
    # scores: (N, C) class scores, target: (N,) class ids
    num_classes = scores.size(1)
    _, pred = scores.topk(1, dim=1)
    pred = pred.view(-1)
    cm = torch.zeros(num_classes, num_classes)
    cm[target, pred] += 1
    return cm

def run():
    scores = torch.tensor([[0.9, 0.1, 0.0], [0.8, 0.2, 0.0], [0.1, 0.7, 0.2], [0.0, 0.1, 0.9]])
    return confusion(scores, torch.tensor([0, 0, 1, 2]))
"""


def test_topk_picks_with_the_rows_joined_repeat(torch):
    cm = call_run(CONFUSION)
    assert cm.sum().item() == 3  # four samples, (0, 0) twice: counted once
    found = lint(CONFUSION)
    assert [f.code for f in found] == ["GL013"]
    assert "with the rows joined" in found[0].message
    assert "cm.new_tensor(1)" in found[0].message  # index_put_ takes its values as a tensor only


def test_the_suggested_accumulation_counts_every_sample(torch):
    fixed = call_run(CONFUSION.replace("cm[target, pred] += 1", "cm.index_put_((target, pred), cm.new_tensor(1), accumulate=True)"))
    assert fixed.sum().item() == 4 and fixed[0, 0].item() == 2


def test_max_indices_are_one_pick_per_row(torch):
    code = CONFUSION.replace("_, pred = scores.topk(1, dim=1)\n    pred = pred.view(-1)", "_, pred = scores.max(1)")
    assert code != CONFUSION
    assert call_run(code).sum().item() == 3
    assert codes(code) == ["GL013"]


def test_picks_within_their_own_rows_do_not_collide(torch):
    # scattered back along the picked dim, row by row: each row's k picks are distinct positions
    code = """
    import torch

    def keep_top(scores, k):
        _, idx = scores.topk(k, dim=1)
        out = torch.zeros_like(scores)
        out.scatter_(1, idx, scores.gather(1, idx))
        return out

    def run():
        scores = torch.tensor([[0.9, 0.1, 0.5], [0.2, 0.8, 0.7]])
        return keep_top(scores, 2)
    """
    out = call_run(code)
    assert out.tolist() == [[0.8999999761581421, 0.0, 0.5], [0.0, 0.800000011920929, 0.699999988079071]]
    assert codes(code) == []


def test_picks_offset_by_their_row_stay_distinct_when_joined(torch):
    code = """
    import torch

    def flat_top(scores, k):
        n, c = scores.shape
        _, idx = scores.topk(k, dim=1)
        flat = (idx + torch.arange(n).unsqueeze(1) * c).view(-1)
        out = torch.zeros(n * c)
        out[flat] = scores.view(-1)[flat]
        return out

    def run():
        return flat_top(torch.tensor([[0.9, 0.1, 0.5], [0.2, 0.8, 0.7]]), 2)
    """
    out = call_run(code)
    assert (out != 0).sum().item() == 4  # every pick of every row written
    assert codes(code) == []


def test_argmax_picks_repeat_whatever_the_receiver(torch):
    # nothing is known of `scores`: argmax over a dim gives int64 positions, one per row, whatever it was
    code = CONFUSION.replace("    # scores: (N, C) class scores, target: (N,) class ids\n", "").replace(
        "_, pred = scores.topk(1, dim=1)\n    pred = pred.view(-1)", "pred = scores.argmax(1)")
    assert "argmax" in code and "(N, C)" not in code
    assert call_run(code).sum().item() == 3
    assert codes(code) == ["GL013"]


def test_argmax_over_dim_0_of_an_unknown_receiver_may_be_one_position(torch):
    # a 1-d receiver's argmax(0) is a single position: nothing repeats, and nothing is known of the receiver
    code = """
    import torch

    def vote(scores, counts):
        counts[scores.argmax(0)] += 1
        return counts

    def run():
        counts = torch.zeros(3)
        for scores in (torch.tensor([0.1, 0.7, 0.2]), torch.tensor([0.5, 0.2, 0.3])):
            counts = vote(scores, counts)
        return counts
    """
    assert call_run(code).tolist() == [1.0, 1.0, 0.0]
    assert codes(code) == []


def test_max_picks_of_a_receiver_of_unknown_shape_repeat_past_dim_0(torch):
    code = """
    import torch

    def confusion(x, target, num_classes):
        scores = torch.as_tensor(x, dtype=torch.float32)
        _, pred = scores.max(1)
        cm = torch.zeros(num_classes, num_classes)
        cm[target, pred] += 1
        return cm

    def run():
        return confusion([[0.9, 0.1], [0.8, 0.2], [0.3, 0.7]], torch.tensor([0, 0, 1]), 2)
    """
    assert call_run(code).sum().item() == 2  # three samples, (0, 0) twice: counted once
    assert codes(code) == ["GL013"]
