"""Table lookups and the broadcasts after them as sites of the static analysis.

`table[idx]` with a column of ids `idx` [N, 1] keeps the key's trailing 1 (static/column_key_lookups.py):
a [C] table gives [N, 1], a [C, 1] column of class weights [N, 1, 1]; combined with a per-sample [N]
term, broadcasting makes [N, N] / [N, 1, N] silently (GL006, reported at the lookup).

Every flagged snippet binds `out` (what the code computes), `expected` (what its author meant, by a
plain loop) and `fixed` (the code with the 1-d key the message asks for); torch must give an `out` of
another shape than `expected` and `fixed == expected`. Silent snippets are right in torch.
"""

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("focal-module-alpha-column-built-in-init-branches", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class WeightedFocal(nn.Module):
            def __init__(self, n_classes, weights=None, gamma=2.0):
                super().__init__()
                self.gamma = gamma
                if weights is None:
                    self.weights = torch.ones(n_classes, 1)
                else:
                    self.weights = torch.tensor(weights).view(n_classes, 1)
                    self.weights = self.weights / self.weights.sum()

            def forward(self, scores, gold):
                probs = F.softmax(scores, dim=1)
                gold = gold.view(-1, 1)
                p_true = probs.gather(1, gold).view(-1)
                w = self.weights[gold]
                return (-1 * w * (1 - p_true) ** self.gamma * p_true.log()).mean()

        crit = WeightedFocal(4, weights=[0.1, 0.2, 0.3, 0.4])
        scores = torch.randn(6, 4)
        gold = torch.randint(0, 4, (6,))
        out = crit(scores, gold)
        probs = scores.softmax(1)
        wts = torch.tensor([0.1, 0.2, 0.3, 0.4])
        expected = torch.stack([-wts[gold[i]] * (1 - probs[i, gold[i]]) ** 2 * probs[i, gold[i]].log()
                                for i in range(6)]).mean()
        p = probs.gather(1, gold.view(-1, 1)).view(-1)
        fixed = (-1 * crit.weights[gold.view(-1)].view(-1) * (1 - p) ** 2 * p.log()).mean()
    """, 20),
    ("plain-function-comment-shapes-1d-weights", """
        import torch

        def class_weighted_nll(logp, labels, class_weights):
            # logp: [N, C], labels: [N], class_weights: [C]
            col = labels.long().unsqueeze(1)
            picked = logp.gather(1, col).squeeze(1)
            w = class_weights[col]
            return -torch.sum(w * picked)

        logp = torch.randn(5, 3).log_softmax(-1)
        labels = torch.tensor([0, 2, 1, 1, 0])
        cw = torch.tensor([1.0, 2.0, 3.0])
        out = class_weighted_nll(logp, labels, cw)
        expected = -sum(cw[labels[i]] * logp[i, labels[i]] for i in range(5))
        fixed = -torch.sum(cw[labels.long()] * logp.gather(1, labels.unsqueeze(1)).squeeze(1))
    """, 8),
    ("jaxtyping-helper-column-table", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def pick_weight(table: Float[Tensor, "C 1"], ids: Int[Tensor, "N 1"]):
            return table[ids]

        def weighted_nll(logp: Float[Tensor, "N"], ids: Int[Tensor, "N 1"], table: Float[Tensor, "C 1"]):
            rows = table[ids]
            return -(rows * logp).mean()

        logp = -torch.rand(4)
        ids = torch.tensor([[1], [0], [2], [1]])
        table = torch.tensor([[0.5], [1.0], [2.0]])
        out = weighted_nll(logp, ids, table)
        expected = -torch.stack([table[ids[i, 0], 0] * logp[i] for i in range(4)]).mean()
        fixed = -(table[ids.view(-1)].view(-1) * logp).mean()
    """, 10),
    ("docstring-shapes-torch-mul", """
        import torch

        def reweight(loss, target, alpha):
            \"\"\"Scale each sample's loss by its class weight.

            Args:
                loss: per-sample loss of shape (N,).
                target: class of each sample, shape (N,), dtype long.
                alpha: class weights of shape (C,).
            \"\"\"
            target = target.view(-1, 1)
            return torch.mul(alpha[target], loss).mean()

        loss = torch.rand(6)
        target = torch.tensor([0, 1, 1, 2, 0, 2])
        alpha = torch.tensor([0.25, 0.5, 0.25])
        out = reweight(loss, target, alpha)
        expected = torch.stack([alpha[target[i]] * loss[i] for i in range(6)]).mean()
        fixed = torch.mul(alpha[target], loss).mean()
    """, 13),
    ("helper-returns-the-lookup-driver-sizes", """
        import torch


        def class_weight_of(weights, target):
            return weights[target.view(-1, 1)]


        def weighted_nll(logp, target, weights):
            # logp: [B, C], target: [B], weights: [C]
            nll = -logp.gather(1, target.unsqueeze(1)).squeeze(1)
            return (class_weight_of(weights, target) * nll).mean()


        if __name__ == "__main__":
            logp = torch.randn(8, 5).log_softmax(-1)
            target = torch.randint(0, 5, (8,))
            weights = torch.rand(5)
            out = weighted_nll(logp, target, weights)
            expected = torch.stack([-weights[target[i]] * logp[i, target[i]] for i in range(8)]).mean()
            fixed = (weights[target.view(-1)] * -logp.gather(1, target.unsqueeze(1)).squeeze(1)).mean()
    """, 6),  # reported where the helper keeps the singleton, as for a gather another function returns
]

SILENT = [
    ("one-d-key", """
        import torch

        def weighted(per_sample, labels, class_weights):
            # per_sample: [N], labels: [N], class_weights: [C, 1]
            w = class_weights[labels.long()].view(-1)
            return torch.sum(w * per_sample)

        per_sample = torch.rand(5)
        labels = torch.tensor([0, 2, 1, 1, 0])
        cw = torch.tensor([[1.0], [2.0], [3.0]])
        out = weighted(per_sample, labels, cw)
        expected = sum(cw[labels[i], 0] * per_sample[i] for i in range(5))
    """),
    ("column-key-squeezed-after-lookup", """
        import torch

        def weighted(per_sample, labels, class_weights):
            # per_sample: [N], labels: [N], class_weights: [C]
            w = class_weights[labels.long().unsqueeze(1)].squeeze(1)
            return torch.sum(w * per_sample)

        per_sample = torch.rand(5)
        labels = torch.tensor([0, 2, 1, 1, 0])
        cw = torch.tensor([1.0, 2.0, 3.0])
        out = weighted(per_sample, labels, cw)
        expected = sum(cw[labels[i]] * per_sample[i] for i in range(5))
    """),
    ("column-lookup-meets-a-column", """
        import torch

        def weighted(per_sample, labels, class_weights):
            # per_sample: [N, 1], labels: [N], class_weights: [C]
            w = class_weights[labels.long().unsqueeze(1)]
            return torch.sum(w * per_sample)

        per_sample = torch.rand(5, 1)
        labels = torch.tensor([0, 2, 1, 1, 0])
        cw = torch.tensor([1.0, 2.0, 3.0])
        out = weighted(per_sample, labels, cw)
        expected = sum(cw[labels[i]] * per_sample[i, 0] for i in range(5))
    """),
    ("column-table-with-a-1d-term-of-unknown-size", """
        import torch

        def weighted(term, ids, table):
            # ids: [N, 1], table: [C, 1]
            return (table[ids.long()] * term).sum()

        term = torch.rand(1)
        ids = torch.tensor([[0], [1]])
        table = torch.tensor([[1.0], [2.0]])
        out = weighted(term, ids, table)
        expected = (table[ids.view(-1), 0] * term).sum()
    """),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_column_key_lookup_broadcast_is_flagged_at_the_lookup(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL006", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_broadcasts_the_flagged_lookup_and_the_fix_is_right(code, line, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    out, expected = scope["out"], scope["expected"]
    assert out.shape != expected.shape or not torch.allclose(out.float(), expected.float(), atol=1e-5)
    assert torch.allclose(scope["fixed"].float(), expected.float(), atol=1e-5)


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_lookups_used_as_meant_are_silent(code):
    assert [f for f in lint(code) if f.code == "GL006"] == []


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_silent_snippets_are_right_in_torch(code, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert scope["out"].shape == scope["expected"].shape
    assert torch.allclose(scope["out"].float(), scope["expected"].float(), atol=1e-5)


def test_message_names_the_shapes_and_the_outer_product(torch):
    code = dict((n, c) for n, c, _ in FLAGGED)["focal-module-alpha-column-built-in-init-branches"]
    message = next(f.message for f in lint(code) if f.code == "GL006")
    assert "`self.weights[gold]`" in message and "[6, 1, 1]" in message and "[6, 1, 6]" in message
    assert "silently" in message and "idx.view(-1)" in message
    # the shapes the message states are torch's
    weights, gold, p = torch.ones(4, 1), torch.randint(0, 4, (6, 1)), torch.rand(6)
    assert tuple(weights[gold].shape) == (6, 1, 1) and tuple((weights[gold] * p).shape) == (6, 1, 6)
    one_d = dict((n, c) for n, c, _ in FLAGGED)["plain-function-comment-shapes-1d-weights"]
    message = next(f.message for f in lint(one_d) if f.code == "GL006")
    assert "keeps the index's singleton dim 1" in message and "[N, N]" in message
    assert tuple((torch.ones(4)[gold] * p).shape) == (6, 6)


def test_cat_of_a_0d_piece_with_an_unknown_one_does_not_crash():
    code = """
        import torch

        def f(a, idx):
            s = torch.tensor(1.0)
            out = torch.cat([s, a], 0)
            return out.gather(0, idx)
    """
    assert lint(code) == []


# GL006 in an element-wise loss (static/loss_targets.py): a gathered [B, 1] against a target [B, A] never
# reduced over the actions; torch broadcasts with only a size UserWarning.
LOSS_FLAGGED = [
    ("module-loss-method-driver-sizes", """
        import torch


        class Learner:
            def __init__(self):
                self.loss_fn = torch.nn.SmoothL1Loss()

            def loss(self, q_values, actions, v_next):
                q_sa = q_values.gather(-1, actions.long().unsqueeze(-1))
                return self.loss_fn(q_sa, v_next)


        q_values, actions = torch.randn(8, 3), torch.randint(0, 3, (8,))
        probs, v_next = torch.softmax(torch.randn(8, 3), -1), torch.randn(8, 3)
        out = Learner().loss(q_values, actions, probs * v_next)
        expected = torch.nn.functional.smooth_l1_loss(q_values[torch.arange(8), actions], (probs * v_next).sum(-1))
        fixed = Learner().loss(q_values, actions, (probs * v_next).sum(-1, keepdim=True))
    """, 11),
    ("plain-function-constructor-sizes", """
        import torch
        import torch.nn.functional as F

        def td_loss(q_all, a, target):
            q = torch.gather(q_all, 1, a.view(-1, 1))
            return F.mse_loss(q, target)

        q_all, a = torch.randn(6, 4), torch.randint(0, 4, (6,))
        probs, q_next = torch.softmax(torch.randn(6, 4), 1), torch.randn(6, 4)
        out = td_loss(q_all, a, 1.0 + 0.9 * probs * q_next)
        expected = F.mse_loss(q_all[torch.arange(6), a], 1.0 + 0.9 * (probs * q_next).sum(1))
        fixed = td_loss(q_all, a, 1.0 + 0.9 * (probs * q_next).sum(1, keepdim=True))
    """, 7),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in LOSS_FLAGGED], ids=[n for n, _, _ in LOSS_FLAGGED])
def test_unreduced_loss_target_is_flagged_at_the_loss(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL006", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in LOSS_FLAGGED], ids=[n for n, _, _ in LOSS_FLAGGED])
def test_torch_broadcasts_the_unreduced_target_and_the_reduction_is_right(code, line, torch):
    import warnings
    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scope = run_snippet(code)
    assert any("target size" in str(w.message) for w in caught)  # torch's only complaint
    assert not torch.allclose(scope["out"], scope["expected"], atol=1e-5)
    assert torch.allclose(scope["fixed"], scope["expected"], atol=1e-5)


def test_a_reduced_target_or_an_unknown_action_count_is_silent():
    code = """
        import torch
        import torch.nn.functional as F

        def td_loss(q_all, a, target):
            # q_all: [B, A]
            q = q_all.gather(1, a.view(-1, 1))
            return F.mse_loss(q, target)

        q_all, a = torch.randn(6, 4), torch.randint(0, 4, (6,))
        out = td_loss(q_all, a, torch.randn(6, 1))

        def td_loss_named(q_all, a, target):
            # q_all: [B, A], target: [B, A]
            q = q_all.gather(1, a.view(-1, 1))
            return F.mse_loss(q, target)
    """
    assert [f for f in lint(code) if f.code == "GL006"] == []


def test_attributes_only_init_assigns_reach_forward_and_reassigned_ones_do_not():
    built_in_branches = """
        import torch
        import torch.nn as nn

        class Loss(nn.Module):
            def __init__(self, n, alpha=None):
                super().__init__()
                if alpha is None:
                    self.alpha = torch.ones(n, 1)
                else:
                    self.alpha = torch.tensor(alpha).view(n, 1)

            def forward(self, logp, target):
                col = target.view(-1, 1)
                return (self.alpha[col] * logp.gather(1, col).view(-1)).mean()

        loss = Loss(3)(torch.randn(5, 3), torch.randint(0, 3, (5,)))
    """
    assert ("GL006", 15) in [(f.code, f.line) for f in lint(built_in_branches)]
    # another method may change the attribute's shape before forward runs: nothing is known then
    reassigned = built_in_branches.replace("""
            def forward(self, logp, target):""", """
            def flatten(self):
                self.alpha = self.alpha.view(-1)

            def forward(self, logp, target):""")
    assert [f for f in lint(reassigned) if f.code == "GL006"] == []


# A dim out of range that a caller passed in (static/passed_dims.py): reported at the call that hands a
# size to the `dim` parameter, not inside the helper; forwarding `dim` as `dim` passes it on up.
PASSED_DIM = [
    ("module-forward-through-two-helpers", """
        import torch
        import torch.nn as nn

        def segment_sum(src, index, dim=0, dim_size=None):
            if dim_size is None:
                dim_size = int(index.max()) + 1
            out = src.new_zeros(dim_size, src.size(-1))
            return out.scatter_add_(dim, index.unsqueeze(-1).expand_as(src), src)

        def segment_mean(src, index, dim=0, dim_size=None):
            total = segment_sum(src, index, dim, dim_size)
            return total / segment_sum(torch.ones_like(src), index, dim, dim_size).clamp(min=1)

        class Readout(nn.Module):
            def forward(self, h, graph_of_node, n_graphs):
                return segment_mean(h, graph_of_node, n_graphs)

        sizes = {"nodes": [3, 2, 4]}
        h = torch.randn(9, 5)
        graph_of_node = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
        out = Readout()(h, graph_of_node, len(sizes["nodes"]))
    """, 17, 9),
    ("plain-function-axis-parameter", """
        import torch

        def pool(feats, seg, axis=0, num=None):
            buf = torch.zeros(int(seg.max()) + 1 if num is None else num, feats.shape[1])
            return buf.index_add(axis, seg, feats)

        def graph_embeddings(feats, seg, num_graphs):
            # feats: [N, D], seg: [N]
            return pool(feats, seg, num_graphs)

        feats = torch.randn(6, 4)
        seg = torch.tensor([0, 0, 1, 1, 1, 2])
        out = graph_embeddings(feats, seg, 3)
    """, 10, 6),
]


@pytest.mark.parametrize("code,line,inner", [(c, n, i) for _, c, n, i in PASSED_DIM], ids=[n for n, *_ in PASSED_DIM])
def test_size_passed_to_a_dim_parameter_is_flagged_at_that_call(code, line, inner):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL002", line) in found and ("GL002", inner) not in found, found
    message = next(f.message for f in lint(code) if f.code == "GL002")
    assert "passed in here" in message and "parameter" in message


@pytest.mark.parametrize("code,line,inner", [(c, n, i) for _, c, n, i in PASSED_DIM], ids=[n for n, *_ in PASSED_DIM])
def test_torch_raises_dimension_out_of_range_for_the_passed_size(code, line, inner, torch):
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(code)


def test_a_size_passed_by_keyword_to_the_size_parameter_is_silent(torch):
    code = PASSED_DIM[0][1].replace("segment_mean(h, graph_of_node, n_graphs)",
                                    "segment_mean(h, graph_of_node, dim_size=n_graphs)")
    assert [f for f in lint(code) if f.code == "GL002"] == []
    assert tuple(run_snippet(code)["out"].shape) == (3, 5)


# A parameter annotated with a literal size the caller's tensor does not have: the call runs with the
# caller's tensor (as with another rank), so an expectation never summed reaches the loss as [B, A].
UNREDUCED_THROUGH_ANNOTATION = [
    ("jaxtyping-parameter-says-batch-1", """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        from torch import Tensor

        def soft_value(probs: Float[Tensor, "b a"], q_next: Float[Tensor, "b a"]) -> Float[Tensor, "b 1"]:
            return probs * q_next

        def q_loss(q_all: Float[Tensor, "b a"], act: Int[Tensor, "b"], target: Float[Tensor, "b 1"]):
            q_taken = q_all.gather(1, act[:, None])
            return F.mse_loss(q_taken, target)

        if __name__ == "__main__":
            probs, q_next = torch.softmax(torch.randn(16, 3), -1), torch.randn(16, 3)
            q_all, act = torch.randn(16, 3), torch.randint(0, 3, (16,))
            out = q_loss(q_all, act, soft_value(probs, q_next))
            expected = F.mse_loss(q_all[torch.arange(16), act], (probs * q_next).sum(-1))
            fixed = q_loss(q_all, act, (probs * q_next).sum(-1, keepdim=True))
    """, 12),
    ("docstring-parameter-says-n-1", """
        import torch
        import torch.nn.functional as F

        def value_loss(values, chosen, returns):
            \"\"\"Regression of the chosen head's value.

            Args:
                values: (N, H) value of every head.
                chosen: (N,) head picked per sample.
                returns: (N, 1) return of every sample.
            \"\"\"
            v = values.gather(1, chosen.unsqueeze(1))
            return F.l1_loss(v, returns)

        if __name__ == "__main__":
            values, chosen = torch.randn(10, 4), torch.randint(0, 4, (10,))
            weights, per_head = torch.softmax(torch.randn(10, 4), 1), torch.randn(10, 4)
            out = value_loss(values, chosen, weights * per_head)
            expected = F.l1_loss(values[torch.arange(10), chosen], (weights * per_head).sum(1))
            fixed = value_loss(values, chosen, (weights * per_head).sum(1, keepdim=True))
    """, 14),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in UNREDUCED_THROUGH_ANNOTATION],
                         ids=[n for n, _, _ in UNREDUCED_THROUGH_ANNOTATION])
def test_unreduced_target_passed_past_an_annotation_is_flagged_at_the_loss(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL006", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in UNREDUCED_THROUGH_ANNOTATION],
                         ids=[n for n, _, _ in UNREDUCED_THROUGH_ANNOTATION])
def test_torch_averages_the_unreduced_target_and_the_sum_is_right(code, line, torch):
    import warnings
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"], atol=1e-5)
    assert torch.allclose(scope["fixed"], scope["expected"], atol=1e-5)


def test_a_target_of_the_annotated_size_is_silent():
    code = UNREDUCED_THROUGH_ANNOTATION[0][1].replace(
        "out = q_loss(q_all, act, soft_value(probs, q_next))", "out = q_loss(q_all, act, torch.randn(16, 1))")
    assert [f for f in lint(code) if f.code == "GL006"] == []
