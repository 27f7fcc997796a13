"""Mistakes whose shapes were known but that no rule recognised (rules, fifth round).

GL006 across a call (static/passed_columns.py): a parameter annotated as a column `[B, 1]` that the
caller fills with a `[B]` (a gathered pick squeezed too early), or annotated `[B]` and given a
`[B, 1]`, meets another parameter of the annotated shape. Flagged snippets bind `res`, the tensor the
flagged operator made: torch must show it is the `[B, B]` outer product, not `[B, 1]` / `[B]`.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

PASSED_COLUMN_FLAGGED = [
    ("jaxtyping-module-forward-then-helper", """
        import torch
        import torch.nn as nn
        from jaxtyping import Float, Int
        from torch import Tensor

        class Critic(nn.Module):
            def __init__(self, width: int):
                super().__init__()
                self.head = nn.Linear(width, 1)

            def forward(self, h: Float[Tensor, "n t d"], last: Int[Tensor, "n"]) -> Float[Tensor, "n"]:
                v = self.head(h).squeeze(-1)
                return v.gather(1, last.unsqueeze(1)).squeeze(1)

        def value_error(pred: Float[Tensor, "n 1"], target: Float[Tensor, "n 1"]) -> Float[Tensor, "n 1"]:
            return (target - pred) ** 2

        def update(critic: Critic, h, last, target):
            return value_error(critic(h, last), target)

        if __name__ == "__main__":
            critic = Critic(5)
            res = update(critic, torch.randn(3, 4, 5), torch.tensor([3, 1, 0]), torch.randn(3, 1))
    """, 17),
    ("docstring-plain-functions", """
        import torch

        def pick(log_probs, actions):
            \"\"\"Args:
                log_probs (Tensor): (B, A) log-probabilities.
                actions (LongTensor): (B,) taken actions.

            Returns:
                Tensor: (B,) log-probability of each taken action.
            \"\"\"
            return log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)

        def policy_term(logp, advantages):
            \"\"\"Args:
                logp (Tensor): (B, 1) taken-action log-probabilities.
                advantages (Tensor): (B, 1) advantages.
            \"\"\"
            return -(logp * advantages)

        lp = torch.randn(4, 3).log_softmax(-1)
        res = policy_term(pick(lp, torch.tensor([0, 2, 1, 1])), torch.randn(4, 1))
    """, 19),
    ("reverse-column-passed-for-flat", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def weighted(q: Float[Tensor, "batch"], w: Float[Tensor, "batch"]) -> Float[Tensor, "batch"]:
            return q * w

        def td(q_all: Float[Tensor, "batch actions"], a, weights: Float[Tensor, "batch"]):
            q = q_all.gather(1, a.view(-1, 1))
            return weighted(q, weights)

        res = td(torch.randn(6, 2), torch.tensor([0, 1, 1, 0, 1, 0]), torch.rand(6))
    """, 7),
]

PASSED_COLUMN_CLEAN = [
    ("column-passed-as-annotated", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def value_error(pred: Float[Tensor, "n 1"], target: Float[Tensor, "n 1"]):
            return (target - pred) ** 2

        def update(v: Float[Tensor, "n a"], a):
            return value_error(v.gather(1, a.unsqueeze(1)), torch.zeros(v.size(0), 1))

        res = update(torch.randn(3, 2), torch.tensor([0, 1, 1]))
    """),
    ("unannotated-callee-takes-any-rank", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def value_error(pred, target):
            return (target - pred) ** 2

        def update(v: Float[Tensor, "n a"], a, target: Float[Tensor, "n"]):
            return value_error(v.gather(1, a.unsqueeze(1)).squeeze(1), target)

        res = update(torch.randn(3, 2), torch.tensor([0, 1, 1]), torch.randn(3))
    """),
    ("reshaped-in-callee-before-use", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def value_error(pred: Float[Tensor, "n 1"], target: Float[Tensor, "n 1"]):
            pred = pred.view(-1, 1)
            return (target - pred) ** 2

        def update(v: Float[Tensor, "n a"], a):
            return value_error(v.gather(1, a.unsqueeze(1)).squeeze(1), torch.zeros(v.size(0), 1))

        res = update(torch.randn(3, 2), torch.tensor([0, 1, 1]))
    """),
    ("other-operand-not-annotated-shape", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def scale(pred: Float[Tensor, "n 1"], factor: float):
            return pred * factor

        def update(v: Float[Tensor, "n a"], a):
            return scale(v.gather(1, a.unsqueeze(1)).squeeze(1), 0.5)

        res = update(torch.randn(3, 2), torch.tensor([0, 1, 1]))
    """),
]


@pytest.mark.parametrize("name,code,line", PASSED_COLUMN_FLAGGED, ids=[c[0] for c in PASSED_COLUMN_FLAGGED])
def test_passed_column_flagged_where_it_broadcasts(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL006") in found, found
    res = run_snippet(code)["res"]  # torch: the operator made the [B, B] outer product
    assert res.dim() == 2 and res.shape[0] == res.shape[1] > 1


@pytest.mark.parametrize("name,code", PASSED_COLUMN_CLEAN, ids=[c[0] for c in PASSED_COLUMN_CLEAN])
def test_passed_column_clean(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL006"] == []
    res = run_snippet(code)["res"]
    assert res.dim() < 2 or res.shape[0] != res.shape[1] or res.shape[1] == 1


def test_passed_column_message_names_shapes_and_fix():
    code = textwrap.dedent(PASSED_COLUMN_FLAGGED[0][1])
    message = next(v.message for v in lint(code) if v.code == "GL006")
    assert "annotated [n, 1]" in message and "passes [n]" in message and "[n, n]" in message
    assert "unsqueeze(-1)" in message


# GL006, squeezed pick (static/squeezed_picks.py): a gathered pick squeezed to [B] meets a per-sample
# column [B, 1]. Flagged snippets bind `res`, the flagged operator's result (or its input pair for a loss).
SQUEEZED_PICK_FLAGGED = [
    ("jaxtyping-function-subtraction", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def td_error(q_all: Float[Tensor, "b a"], taken: Int[Tensor, "b"], target: Float[Tensor, "b 1"]):
            q_taken = q_all.gather(1, taken.unsqueeze(1)).squeeze(1)
            return target - q_taken

        res = td_error(torch.randn(5, 3), torch.tensor([0, 2, 1, 1, 0]), torch.randn(5, 1))
    """, 8),
    ("comments-module-two-step-view", """
        import torch
        import torch.nn as nn

        class PolicyLoss(nn.Module):
            def forward(self, logits, actions, adv):
                # logits: [N, K], actions: [N, 1], adv: [N, 1]
                logp = logits.log_softmax(-1)
                logp = logp.gather(1, actions)
                logp = logp.view(-1)
                return -(logp * adv)

        if __name__ == "__main__":
            res = PolicyLoss()(torch.randn(4, 6), torch.tensor([[1], [0], [5], [2]]), torch.randn(4, 1))
    """, 11),
    ("docstring-helper-where-inside-driver-loss", """
        import torch

        def critic_loss(values, index, returns):
            \"\"\"Args:
                values (Tensor): (batch, steps) value of every step.
                index (LongTensor): (batch,) step at which each chunk ends.
                returns (Tensor): (batch, 1) discounted return of each chunk.
            \"\"\"
            v = torch.gather(values, 1, index[:, None]).squeeze(-1)
            res = (returns - v) ** 2
            return res, res.mean()

        if __name__ == "__main__":
            res, loss = critic_loss(torch.randn(3, 7), torch.tensor([6, 2, 4]), torch.randn(3, 1))
    """, 11),
]

SQUEEZED_PICK_CLEAN = [
    ("column-squeezed-too", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def td_error(q_all: Float[Tensor, "b a"], taken: Int[Tensor, "b"], target: Float[Tensor, "b 1"]):
            q_taken = q_all.gather(1, taken.unsqueeze(1)).squeeze(1)
            return target.squeeze(1) - q_taken

        res = td_error(torch.randn(5, 3), torch.tensor([0, 2, 1, 1, 0]), torch.randn(5, 1))
    """),
    ("pick-kept-as-column", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def td_error(q_all: Float[Tensor, "b a"], taken: Int[Tensor, "b"], target: Float[Tensor, "b 1"]):
            q_taken = q_all.gather(1, taken.unsqueeze(1))
            return target - q_taken

        res = td_error(torch.randn(5, 3), torch.tensor([0, 2, 1, 1, 0]), torch.randn(5, 1))
    """),
    ("deliberate-pairing-written-at-the-operation", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def pairwise_margin(scores: Float[Tensor, "b k"], pos: Int[Tensor, "b"], other: Float[Tensor, "b"]):
            picked = scores.gather(1, pos.unsqueeze(1)).squeeze(1)
            return picked - other.unsqueeze(1)

        res = pairwise_margin(torch.randn(4, 3), torch.tensor([0, 1, 2, 0]), torch.randn(4))
    """),
]


@pytest.mark.parametrize("name,code,line", SQUEEZED_PICK_FLAGGED, ids=[c[0] for c in SQUEEZED_PICK_FLAGGED])
def test_squeezed_pick_against_column_flagged(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL006") in found, found
    res = run_snippet(code)["res"]  # torch: the [B, B] outer product, no error
    assert res.dim() == 2 and res.shape[0] == res.shape[1] > 1


@pytest.mark.parametrize("name,code", SQUEEZED_PICK_CLEAN, ids=[c[0] for c in SQUEEZED_PICK_CLEAN])
def test_squeezed_pick_clean(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL006"] == []
    run_snippet(code)


def test_squeezed_pick_in_elementwise_loss_only_warns(recwarn):
    """The message's claim for losses: torch broadcasts to [B, B] with a warning, no error."""
    torch = pytest.importorskip("torch")
    q, target = torch.randn(4), torch.randn(4, 1)
    loss = torch.nn.functional.mse_loss(q, target)
    assert torch.allclose(loss, ((q - target) ** 2).mean())  # the [4, 4] mean
    assert any("target size" in str(w.message) for w in recwarn)


# GL011 through a mirrored strict triangle (static/mirrored_triangles.py, triu/tril in tensor_ops): the
# sum of a strict triangle of ids and its transpose holds the same ids, so a one-hot / scatter one class
# short is still caught. torch must raise on every flagged snippet and run every clean one.
MIRRORED_FLAGGED = [
    ("script-method-triu-mT-scatter-helper", """
        import torch

        def one_hot_last(types, n):
            out = torch.zeros(*types.shape, n)
            out.scatter_(-1, types.unsqueeze(-1), 1.0)
            return out

        if __name__ == "__main__":
            edge_types = torch.randint(0, 4, (8, 6, 6))
            edge_types[0, 0, 1] = 3
            upper = edge_types.triu(1)
            sym = upper + upper.mT
            res = one_hot_last(sym, 3)
    """, 6),
    ("functional-tril-transpose-one-hot", """
        import torch
        import torch.nn.functional as F

        if __name__ == "__main__":
            bonds = torch.randint(0, 5, (2, 7, 7))
            bonds[1, 3, 0] = 4
            lower = torch.tril(bonds, diagonal=-1)
            adjacency = torch.transpose(lower, 1, 2) + lower
            res = F.one_hot(adjacency, 4)
    """, 10),
    ("module-forward-with-constructor-sizes", """
        import torch
        import torch.nn as nn

        class BondEncoder(nn.Module):
            def __init__(self, n_bond_types):
                super().__init__()
                self.n = n_bond_types

            def forward(self, a):
                a = torch.triu(a, 1)
                a = a + a.transpose(-1, -2)
                return torch.zeros(a.size(0), a.size(1), a.size(2), self.n).scatter(3, a.unsqueeze(-1), 1.0)

        if __name__ == "__main__":
            labels = torch.randint(0, 5, (4, 9, 9))
            labels[0, 0, 8] = 4
            res = BondEncoder(4)(labels)
    """, 13),
]

MIRRORED_CLEAN = [
    ("enough-classes", """
        import torch
        import torch.nn.functional as F

        if __name__ == "__main__":
            bonds = torch.randint(0, 5, (2, 7, 7))
            upper = torch.triu(bonds, 1)
            res = F.one_hot(upper + upper.transpose(1, 2), 5)
    """),
    ("diagonal-kept-values-may-double", """
        import torch
        import torch.nn.functional as F

        if __name__ == "__main__":
            bonds = torch.randint(0, 3, (2, 7, 7))
            upper = torch.triu(bonds)
            res = F.one_hot(upper + upper.transpose(1, 2), 5)
    """),
]


@pytest.mark.parametrize("name,code,line", MIRRORED_FLAGGED, ids=[c[0] for c in MIRRORED_FLAGGED])
def test_mirrored_triangle_keeps_ids(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL011") in found, found
    with pytest.raises((RuntimeError, IndexError)):
        run_snippet(code)


@pytest.mark.parametrize("name,code", MIRRORED_CLEAN, ids=[c[0] for c in MIRRORED_CLEAN])
def test_mirrored_triangle_clean(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL011"] == []
    run_snippet(code)


# GL016 on a fresh default-dtype buffer (static/dtype_certainty.py): `torch.zeros(n)` is float32 for
# certain, so a float64 src (numpy data, `dtype=torch.float64` pipelines, `.double()`) raises in torch.
FRESH_BUFFER_FLAGGED = [
    ("numpy-weights-helper-scatter-add", """
        import numpy as np
        import torch

        def per_graph_energy(atom_energy, graph_of_atom, n_graphs):
            total = torch.zeros(n_graphs)
            total.scatter_add_(0, graph_of_atom, atom_energy)
            return total

        if __name__ == "__main__":
            energies = torch.from_numpy(np.linspace(0.0, 1.0, 5))
            res = per_graph_energy(energies, torch.tensor([0, 0, 1, 1, 1]), 2)
    """, 7),
    ("module-index-add-double-source", """
        import torch
        import torch.nn as nn

        class SegmentSum(nn.Module):
            def forward(self, values, segment, num_segments):
                # values: [N, D], segment: [N]
                out = torch.zeros(num_segments, values.size(1))
                return out.index_add_(0, segment, values.double())

        if __name__ == "__main__":
            res = SegmentSum()(torch.randn(4, 3), torch.tensor([0, 1, 1, 0]), 2)
    """, 9),
    ("driver-float64-pipeline-inline-buffer", """
        import torch

        def histogram(weights, bins, n_bins):
            \"\"\"Args:
                weights (Tensor): (N,) weight of each sample.
                bins (LongTensor): (N,) bin of each sample.
            \"\"\"
            return torch.zeros(n_bins, dtype=torch.float32).scatter_add(0, bins, weights)

        if __name__ == "__main__":
            w = torch.rand(6, dtype=torch.float64) * 2
            res = histogram(w, torch.tensor([0, 2, 2, 1, 0, 2]), 3)
    """, 9),
]

FRESH_BUFFER_CLEAN = [
    ("buffer-made-with-src-dtype", """
        import torch

        def per_graph_energy(atom_energy, graph_of_atom, n_graphs):
            total = torch.zeros(n_graphs, dtype=atom_energy.dtype)
            total.scatter_add_(0, graph_of_atom, atom_energy)
            return total

        if __name__ == "__main__":
            res = per_graph_energy(torch.rand(5, dtype=torch.float64), torch.tensor([0, 0, 1, 1, 1]), 2)
    """),
    ("file-sets-the-default-dtype", """
        import torch

        torch.set_default_dtype(torch.float64)

        def per_graph_energy(atom_energy, graph_of_atom, n_graphs):
            total = torch.zeros(n_graphs)
            total.scatter_add_(0, graph_of_atom, atom_energy)
            return total

        if __name__ == "__main__":
            res = per_graph_energy(torch.rand(5, dtype=torch.float64), torch.tensor([0, 0, 1, 1, 1]), 2)
            torch.set_default_dtype(torch.float32)
    """),
    ("zeros-like-follows-its-model", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def per_graph_energy(ref: Float[Tensor, "g"], atom_energy, graph_of_atom):
            total = torch.zeros_like(ref)
            total.scatter_add_(0, graph_of_atom, atom_energy)
            return total

        if __name__ == "__main__":
            e = torch.rand(5, dtype=torch.float64)
            res = per_graph_energy(e[:2], e, torch.tensor([0, 0, 1, 1, 1]))
    """),
]


@pytest.mark.parametrize("name,code,line", FRESH_BUFFER_FLAGGED, ids=[c[0] for c in FRESH_BUFFER_FLAGGED])
def test_fresh_float32_buffer_with_float64_src(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL016") in found, found
    with pytest.raises(RuntimeError, match="dtype|scalar type"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", FRESH_BUFFER_CLEAN, ids=[c[0] for c in FRESH_BUFFER_CLEAN])
def test_fresh_buffer_clean(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL016"] == []
    run_snippet(code)


# GL011, a size taken from the ids' own max without `+ 1` (static/own_max_sizes.py): torch raises for
# the largest id on every flagged snippet, and runs the clean ones.
OWN_MAX_FLAGGED = [
    ("helper-one-hot-named-count-from-driver", """
        import torch
        import torch.nn.functional as F

        def encode_classes(cls):
            n_cls = int(cls.max())
            return F.one_hot(cls, num_classes=n_cls).float()

        if __name__ == "__main__":
            res = encode_classes(torch.tensor([0, 3, 1, 2]))
    """, 7),
    ("module-scatter-into-zeros-sized-by-item", """
        import torch
        import torch.nn as nn

        class LabelEncoder(nn.Module):
            def forward(self, target):
                # target: [N]
                onehot = torch.zeros(target.size(0), target.max().item())
                onehot.scatter_(1, target.view(-1, 1), 1.0)
                return onehot

        if __name__ == "__main__":
            res = LabelEncoder()(torch.tensor([2, 0, 1]))
    """, 9),
    ("function-index-add-torch-max-count", """
        import torch

        def cluster_sums(points, assignment):
            \"\"\"Args:
                points (Tensor): (N, D) points.
                assignment (LongTensor): (N,) cluster of each point.
            \"\"\"
            k = torch.max(assignment)
            sums = torch.zeros(k, points.size(1))
            return sums.index_add_(0, assignment, points)

        res = cluster_sums(torch.randn(5, 2), torch.tensor([0, 1, 1, 2, 0]))
    """, 11),
]

OWN_MAX_CLEAN = [
    ("plus-one", """
        import torch
        import torch.nn.functional as F

        def encode_classes(cls):
            n_cls = int(cls.max()) + 1
            return F.one_hot(cls, num_classes=n_cls).float()

        res = encode_classes(torch.tensor([0, 3, 1, 2]))
    """),
    ("max-of-other-ids", """
        import torch

        def scatter_rows(vocab_ids, token_ids):
            out = torch.zeros(token_ids.size(0), vocab_ids.max().item() + 1)
            return out.scatter_(1, token_ids.view(-1, 1), 1.0)

        res = scatter_rows(torch.tensor([0, 5]), torch.tensor([1, 2, 5]))
    """),
    ("ids-shifted-after-the-max", """
        import torch
        import torch.nn.functional as F

        def encode_one_based(cls):
            n_cls = int(cls.max())
            cls = cls - 1
            return F.one_hot(cls, num_classes=n_cls)

        res = encode_one_based(torch.tensor([1, 3, 2]))
    """),
]


@pytest.mark.parametrize("name,code,line", OWN_MAX_FLAGGED, ids=[c[0] for c in OWN_MAX_FLAGGED])
def test_size_from_own_max_flagged(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL011") in found, found
    with pytest.raises((RuntimeError, IndexError)):
        run_snippet(code)


@pytest.mark.parametrize("name,code", OWN_MAX_CLEAN, ids=[c[0] for c in OWN_MAX_CLEAN])
def test_size_from_own_max_clean(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL011"] == []
    run_snippet(code)


def test_size_from_own_max_message_gives_the_fix():
    message = next(v.message for v in lint(textwrap.dedent(OWN_MAX_FLAGGED[0][1])) if v.code == "GL011")
    assert "`n_cls` (= `int(cls.max())`)" in message and "num_classes=n_cls + 1" in message


# GL008 through a whole-batch cast (static/dict_comprehensions.py; the caller's proven float cast wins
# over a docstring's `LongTensor` in calls.fill_gaps; pieces of the same ids stay those ids through
# torch.cat): `{k: v.to(dtype) for k, v in batch.items()}` turns the label ids into floats.
BATCH_CAST_FLAGGED = [
    ("helper-cast-then-cat-into-docstring-helper", """
        import torch

        def to_model(batch, dtype):
            return {key: tensor.to(dtype=dtype) for key, tensor in batch.items()}

        def token_logps(logits, ids):
            \"\"\"Args:
                logits (`torch.FloatTensor` of shape `(batch, seq, vocab)`): scores.
                ids (`torch.LongTensor` of shape `(batch, seq)`): target ids.
            \"\"\"
            return logits.log_softmax(-1).gather(2, ids.unsqueeze(-1)).squeeze(-1)

        if __name__ == "__main__":
            raw = {"good": torch.randint(0, 50, (2, 6)), "bad": torch.randint(0, 50, (2, 6))}
            batch = to_model(raw, torch.float16)
            ids = torch.cat([batch["good"], batch["bad"]])
            res = token_logps(torch.randn(4, 6, 50), ids)
    """, 12),
    ("inline-half-comprehension-module", """
        import torch
        import torch.nn as nn

        class Scorer(nn.Module):
            def __init__(self, vocab, dim):
                super().__init__()
                self.out = nn.Linear(dim, vocab)

            def forward(self, hidden, labels):
                return self.out(hidden).gather(-1, labels.unsqueeze(-1))

        if __name__ == "__main__":
            inputs = {"hidden": torch.randn(2, 3, 8), "labels": torch.randint(0, 11, (2, 3))}
            inputs = {k: v.half() for k, v in inputs.items()}
            res = Scorer(11, 8)(inputs["hidden"].float(), inputs["labels"])
    """, 11),
    ("jaxtyping-int-annotation-loses-to-the-cast", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def pick(scores: Float[Tensor, "b k"], choice: Int[Tensor, "b"]) -> Float[Tensor, "b"]:
            return torch.gather(scores, 1, choice[:, None]).squeeze(1)

        if __name__ == "__main__":
            batch = {"scores": torch.randn(3, 4), "choice": torch.randint(0, 4, (3,))}
            moved = {name: t.to("cpu", torch.bfloat16) for name, t in batch.items()}
            res = pick(moved["scores"], moved["choice"])
    """, 7),
]

BATCH_CAST_CLEAN = [
    ("floats-only-cast", """
        import torch

        def to_model(batch, dtype):
            return {k: (v.to(dtype) if v.is_floating_point() else v) for k, v in batch.items()}

        if __name__ == "__main__":
            batch = to_model({"x": torch.randn(2, 5), "ids": torch.randint(0, 5, (2, 1))}, torch.float16)
            res = batch["x"].gather(1, batch["ids"])
    """),
    ("device-move-keeps-ids", """
        import torch

        if __name__ == "__main__":
            batch = {"x": torch.randn(2, 5), "ids": torch.randint(0, 5, (2, 1))}
            batch = {k: v.to("cpu") for k, v in batch.items()}
            res = batch["x"].gather(1, batch["ids"])
    """),
]


@pytest.mark.parametrize("name,code,line", BATCH_CAST_FLAGGED, ids=[c[0] for c in BATCH_CAST_FLAGGED])
def test_batch_cast_reaches_index(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL008") in found, found
    with pytest.raises(RuntimeError, match="int64|Long|integer|Index"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", BATCH_CAST_CLEAN, ids=[c[0] for c in BATCH_CAST_CLEAN])
def test_batch_cast_clean(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL008"] == []
    run_snippet(code)
