"""Facts that reach the faulty call from further away: module attributes that `__init__` builds from
its arguments (a float or a list `alpha`, decided by `isinstance` / `is None`), `Float[Tensor, "..."]`
helpers called with known shapes, networks ending in `nn.Flatten`, `len(batch)` conditions, and a
gathered column returned by one method and combined in another. Each idiom is tested in several
layouts and checked against torch."""
import ast

import pytest

from gather_lint.static import python_types, scalars
from gather_lint.static.values import DimVal, Literal, SeqVal, TensorVal

from .conftest import codes, lint


# ----- attributes built in __init__ from constructor arguments ------------------------------------

def test_float_alpha_from_a_config_dict_becomes_two_weights_gathered_with_five_classes(torch):
    code = """
    import torch
    import torch.nn as nn

    class WeightedNLL(nn.Module):
        def __init__(self, weight=None):
            super().__init__()
            self.weight = weight
            if isinstance(weight, (float, int)):
                self.weight = torch.tensor([weight, 1 - weight])
            if isinstance(weight, list):
                self.weight = torch.tensor(weight)

        def forward(self, logits, target):
            logp = logits.log_softmax(-1).gather(1, target.unsqueeze(1)).squeeze(1)
            w = self.weight.gather(0, target)
            return -(w * logp).mean()

    def make_loss(opts):
        return WeightedNLL(weight=opts["w"])

    if __name__ == "__main__":
        opts = {"w": 0.3, "classes": 5}
        loss_fn = make_loss(opts)
        y = torch.randint(0, 5, (12,))
        print(loss_fn(torch.randn(12, 5), y))
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL011"]
    assert "[2]" in found[0].message and "[0, 5)" in found[0].message
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.tensor([0.3, 0.7]).gather(0, torch.arange(5))


def test_a_list_alpha_of_the_right_length_is_silent():
    code = """
    import torch
    import torch.nn as nn

    class WeightedNLL(nn.Module):
        def __init__(self, weight=None):
            super().__init__()
            self.weight = weight
            if isinstance(weight, (float, int)):
                self.weight = torch.tensor([weight, 1 - weight])
            if isinstance(weight, list):
                self.weight = torch.tensor(weight)

        def forward(self, logits, target):
            return self.weight.gather(0, target)

    if __name__ == "__main__":
        loss_fn = WeightedNLL([0.1, 0.2, 0.3, 0.2, 0.2])
        print(loss_fn(torch.randn(12, 5), torch.randint(0, 5, (12,))))
    """
    assert codes(code) == []


def test_list_alpha_of_fewer_entries_than_classes_is_out_of_range(torch):
    code = """
    import torch
    import torch.nn as nn

    class ClassBalanced(nn.Module):
        def __init__(self, class_weights):
            super().__init__()
            self.register_buffer("cw", torch.as_tensor(class_weights))

        def forward(self, scores, labels):
            return self.cw.index_select(0, labels) * scores.gather(1, labels[:, None]).squeeze(1)

    if __name__ == "__main__":
        crit = ClassBalanced([1.0, 2.0, 0.5])
        print(crit(torch.randn(6, 4), torch.randint(0, 4, (6,))))
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(IndexError, match="out of range"):
        torch.tensor([1.0, 2.0, 0.5]).index_select(0, torch.tensor([3]))


def test_optional_weights_built_by_a_conditional_expression_reach_a_rank_check(torch):
    code = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class SegLoss(nn.Module):
        def __init__(self, weights=None):
            super().__init__()
            self.weights = None if weights is None else torch.tensor(weights, dtype=torch.float32)

        def forward(self, logits, mask):
            idx = mask.view(mask.size(0), 1, -1)
            logp = F.log_softmax(logits.flatten(2), dim=1).gather(1, idx)
            if self.weights is not None:
                logp = logp * self.weights.to(logits).gather(0, idx)
            return -logp.mean()

    if __name__ == "__main__":
        crit = SegLoss(weights=[0.2, 0.4, 0.4])
        print(crit(torch.randn(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4))))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.tensor([0.2, 0.4, 0.4]).gather(0, torch.randint(0, 3, (2, 1, 16)))


def test_attribute_moved_to_the_input_device_in_forward_keeps_its_shape(torch):
    code = """
    import torch
    import torch.nn as nn

    class Reweight(nn.Module):
        def __init__(self, a=0.25):
            super().__init__()
            self.alpha = torch.tensor([a, 1.0 - a])

        def forward(self, x, y):
            self.alpha = self.alpha.to(x.device)
            return self.alpha.gather(0, y) * x.gather(1, y.view(-1, 1)).view(-1)

    if __name__ == "__main__":
        print(Reweight()(torch.randn(8, 3), torch.randint(0, 3, (8,))))
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.tensor([0.25, 0.75]).gather(0, torch.tensor([2]))


def test_attribute_overwritten_by_another_computation_in_forward_is_unknown():
    code = """
    import torch
    import torch.nn as nn

    class Reweight(nn.Module):
        def __init__(self, a=0.25):
            super().__init__()
            self.alpha = torch.tensor([a, 1.0 - a])

        def forward(self, x, y):
            self.alpha = torch.ones(x.size(1))
            return self.alpha.gather(0, y)

        def reset(self):
            self.alpha = torch.ones(10)

    if __name__ == "__main__":
        print(Reweight()(torch.randn(8, 3), torch.randint(0, 3, (8,))))
    """
    assert codes(code) == []


# ----- `Float[Tensor, "..."]` helpers get the caller's shape ---------------------------------------

def test_any_rank_helper_gathers_argmax_positions_along_another_dim(torch):
    code = """
    import torch
    from jaxtyping import Float
    from torch import Tensor

    def pick_max(x: Float[Tensor, "..."], dim: int):
        where = x.argmax(dim=dim, keepdim=True)
        return x.gather(-1, where)

    def encode(tokens):
        feats = torch.randn(tokens.size(0), tokens.size(1), 16)
        return pick_max(feats, dim=1)

    if __name__ == "__main__":
        print(encode(torch.randint(0, 9, (4, 7))).shape)
    """
    assert codes(code) == ["GL004"]
    x = torch.randn(4, 7, 16)
    out = x.gather(-1, x.argmax(dim=1, keepdim=True))  # runs: reads along the feature axis
    assert not torch.equal(out, x.max(dim=1, keepdim=True).values)


def test_any_rank_helper_with_the_right_dim_is_silent():
    code = """
    import torch
    from jaxtyping import Float
    from torch import Tensor

    def pick_max(x: Float[Tensor, "..."], dim: int):
        where = x.argmax(dim=dim, keepdim=True)
        return x.gather(dim, where)

    if __name__ == "__main__":
        print(pick_max(torch.randn(4, 7, 16), dim=1).shape)
    """
    assert codes(code) == []


# ----- networks whose output shape is known: nn.Flatten, same-padding convs -------------------------

def test_flatten_in_a_sequential_gives_q_values_whose_kept_column_meets_targets(torch):
    code = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class PixelQ(nn.Module):
        def __init__(self, channels, side, n_actions):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(channels, 8, 5, padding=2), nn.ReLU(), nn.Flatten(),
                                      nn.Linear(8 * side * side, n_actions))

        def forward(self, obs):
            return self.body(obs)

        def chosen(self, obs, acts):
            return self(obs).gather(1, acts.unsqueeze(1))

    if __name__ == "__main__":
        net = PixelQ(3, 6, 4)
        obs, acts, target = torch.randn(5, 3, 6, 6), torch.randint(0, 4, (5,)), torch.randn(5)
        print(F.smooth_l1_loss(net.chosen(obs, acts), target))
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL006"]
    assert found[0].line == 16  # at the gather, where the squeeze belongs
    q = torch.randn(5, 4).gather(1, torch.randint(0, 4, (5, 1)))
    with pytest.warns(UserWarning, match="target size"):
        assert torch.nn.functional.smooth_l1_loss(q, torch.randn(5)).shape == ()
    assert (q - torch.randn(5)).shape == (5, 5)


def test_len_of_a_known_batch_decides_a_squeeze_branch(torch):
    code = """
    import torch

    def q_of(q_all, actions):
        q = q_all.gather(1, actions.unsqueeze(-1))
        if len(actions) == 1:
            q = q.squeeze(-1)
        return q

    if __name__ == "__main__":
        q_all, actions, td = torch.randn(8, 3), torch.randint(0, 3, (8,)), torch.randn(8)
        print(((q_of(q_all, actions) - td) ** 2).mean())
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL006"]
    assert found[0].line == 5
    q = torch.randn(8, 3).gather(1, torch.randint(0, 3, (8, 1)))
    assert (q - torch.randn(8)).shape == (8, 8)


def test_len_of_a_one_row_batch_takes_the_squeeze_branch():
    code = """
    import torch

    def q_of(q_all, actions):
        q = q_all.gather(1, actions.unsqueeze(-1))
        if len(actions) == 1:
            q = q.squeeze(-1)
        return q

    if __name__ == "__main__":
        q_all, actions, td = torch.randn(1, 3), torch.randint(0, 3, (1,)), torch.randn(1)
        print(((q_of(q_all, actions) - td) ** 2).mean())
    """
    assert codes(code) == []


# ----- the pieces ---------------------------------------------------------------------------------

def _types(text):
    return ast.parse(text, mode="eval").body


@pytest.mark.parametrize("value, types, expected", [
    (Literal(0.25), "(float, int)", True),
    (DimVal(2), "(float, int)", True),
    (Literal(True), "int", True),
    (Literal(0.25), "list", False),
    (python_types.ListVal((Literal(0.1), Literal(0.9))), "list", True),
    (python_types.ListVal((Literal(0.1),)), "(float, int)", False),
    (SeqVal((DimVal(1), DimVal(2))), "list", None),  # a tuple or a list
    (SeqVal((DimVal(1), DimVal(2))), "(list, tuple)", True),
    (TensorVal(None), "torch.Tensor", None),  # may be None at run time
    (TensorVal(None), "float", False),
    (scalars.NumberVal(), "float", None),  # a float default may be overridden by an int
    (None, "float", None),
    (Literal(0.25), "MyNumber", None),  # a type the analysis cannot rule out
])
def test_isinstance_is_decided_only_for_values_the_analysis_made(value, types, expected):
    found = python_types.isinstance_of(value, _types(types))
    assert (found.value if found is not None else None) == expected


@pytest.mark.parametrize("data, shape, dtype", [
    (SeqVal((Literal(0.25), scalars.NumberVal())), (2,), "float32"),
    (SeqVal((DimVal(1), DimVal(None), DimVal(3))), (3,), "int64"),
    (SeqVal((SeqVal((DimVal(1), DimVal(2))), SeqVal((DimVal(3), DimVal(4))))), (2, 2), "int64"),
    (SeqVal((Literal(0.5), None)), None, None),  # an item of unknown kind: maybe a list
    (SeqVal((SeqVal((DimVal(1),)), SeqVal((DimVal(3), DimVal(4))))), None, None),  # ragged
])
def test_tensor_of_tracked_numbers(torch, data, shape, dtype):
    made = scalars.tensor_of_numbers(data)
    if shape is None:
        assert made is None
        return
    assert tuple(made.shape.dims) == shape and made.dtype == dtype
    example = {(2,): [0.25, 0.75], (3,): [1, 5, 3], (2, 2): [[1, 2], [3, 4]]}[shape]
    assert tuple(torch.tensor(example).shape) == shape and str(torch.tensor(example).dtype) == "torch." + dtype


def test_legacy_tensor_constructor_of_a_list_is_float_data(torch):
    assert torch.Tensor([0.25, 0.75]).shape == (2,) and torch.Tensor([0.25, 0.75]).dtype == torch.float32
    code = """
    import torch

    def pick(labels):
        w = torch.Tensor([0.25, 0.75])
        return w.gather(0, labels)

    if __name__ == "__main__":
        print(pick(torch.randint(0, 3, (4,))))
    """
    assert codes(code) == ["GL011"]


# ----- batches built as lists of (x, y) pairs; settings compared with numbers ----------------------

def test_soft_targets_from_a_mix_step_chosen_by_a_float_setting_reach_a_gather(torch):
    code = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class SmoothedNLL(nn.Module):
        def __init__(self, eps=0.1):
            super().__init__()
            self.eps = eps

        def forward(self, logits, y):
            logp = logits.log_softmax(-1)
            return -(logp.gather(-1, y[:, None]).squeeze(-1) * (1 - self.eps) + logp.mean(-1) * self.eps).mean()

    class CutMix:
        def __init__(self, n_classes):
            self.n_classes = n_classes

        def __call__(self, x, y):
            lam = 0.7
            order = torch.randperm(x.size(0))
            soft = F.one_hot(y, self.n_classes).float()
            return lam * x + (1 - lam) * x[order], lam * soft + (1 - lam) * soft[order]

    def run(settings, loader):
        net = nn.Sequential(nn.Flatten(), nn.Linear(settings["dim"], settings["n_classes"]))
        mix = CutMix(settings["n_classes"]) if settings["mix_prob"] > 0.0 else None
        loss_fn = SmoothedNLL()
        for xb, yb in loader:
            if mix is not None:
                xb, yb = mix(xb, yb)
            loss = loss_fn(net(xb), yb)
        return loss

    if __name__ == "__main__":
        settings = {"dim": 12, "n_classes": 3, "mix_prob": 0.5}
        loader = [(torch.randn(4, 3, 2, 2), torch.randint(0, 3, (4,))) for _ in range(2)]
        print(run(settings, loader))
    """
    assert codes(code) == ["GL001", "GL008"]  # the soft [4, 3] targets: float, and one dim too many after [:, None]
    soft = torch.nn.functional.one_hot(torch.randint(0, 3, (4,)), 3).float()
    with pytest.raises(RuntimeError, match="int32/int64"):
        torch.randn(4, 3).gather(-1, soft[:, None])


def test_the_same_loop_without_the_mix_step_is_silent():
    code = """
    import torch
    import torch.nn as nn

    def run(settings, loader):
        net = nn.Sequential(nn.Flatten(), nn.Linear(settings["dim"], settings["n_classes"]))
        mix = object() if settings["mix_prob"] > 0.0 else None
        for xb, yb in loader:
            if mix is not None:
                xb = xb * 2
            logp = net(xb).log_softmax(-1)
            loss = -logp.gather(-1, yb[:, None]).mean()
        return loss

    if __name__ == "__main__":
        settings = {"dim": 12, "n_classes": 3, "mix_prob": 0.0}
        loader = [(torch.randn(4, 3, 2, 2), torch.randint(0, 3, (4,))) for _ in range(2)]
        print(run(settings, loader))
    """
    assert codes(code) == []


def test_embedding_of_unknown_ids_plus_positions_is_not_shaped_like_the_positions():
    code = """
    import torch
    import torch.nn as nn

    class Scorer(nn.Module):
        def __init__(self, vocab, width, max_len):
            super().__init__()
            self.tok = nn.Embedding(vocab, width)
            self.pos = nn.Embedding(max_len, width)
            self.mix = nn.TransformerEncoderLayer(width, 2, 2 * width, batch_first=True)
            self.head = nn.Linear(width, 1)

        def forward(self, ids):
            h = self.mix(self.tok(ids) + self.pos(torch.arange(ids.size(1))))
            return self.head(h).squeeze(-1)

    def last_score(model, ids, lengths):
        return model(ids).gather(1, (lengths - 1).unsqueeze(-1)).squeeze(-1)

    if __name__ == "__main__":
        model = Scorer(20, 8, 6)
        rows = []
        for n in (3, 5):
            rows.append([1] * n + [0] * (6 - n))
        ids = torch.tensor(rows)
        print(last_score(model, ids, torch.tensor([3, 5])))
    """
    assert codes(code) == []


def test_batch_norm_and_transformer_layers_keep_the_shape_a_gather_checks(torch):
    code = """
    import torch
    import torch.nn as nn

    class Tagger(nn.Module):
        def __init__(self, width, n_tags):
            super().__init__()
            self.enc = nn.TransformerEncoderLayer(width, 2, 16, batch_first=True)
            self.norm = nn.BatchNorm1d(width)
            self.out = nn.Linear(width, n_tags)

        def forward(self, x, tags):
            h = self.enc(x)
            scores = self.out(h).log_softmax(-1)
            return scores.gather(-1, tags)

    if __name__ == "__main__":
        print(Tagger(8, 5)(torch.randn(2, 7, 8), torch.randint(0, 5, (2, 7))))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(2, 7, 5).gather(-1, torch.randint(0, 5, (2, 7)))


# ----- Python container annotations: `ids: list[int]`, `-> List[List[int]]` ------------------------

def test_list_of_int_parameter_made_a_tensor_is_one_dimensional(torch):
    code = """
    import torch

    def pick_columns(table, cols: list[int]):
        idx = torch.tensor(cols)
        return torch.gather(table, 1, idx)

    if __name__ == "__main__":
        print(pick_columns(torch.randn(3, 5), [0, 2]))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.gather(torch.randn(3, 5), 1, torch.tensor([0, 2]))


def test_rows_of_a_helper_annotated_list_of_lists_reach_a_gather_in_a_method(torch):
    code = """
    from typing import List

    import torch
    import torch.nn as nn

    def chains(parent: List[int]) -> List[List[int]]:
        out = []
        for node, up in enumerate(parent):
            out.append((out[up] if up >= 0 else []) + [node])
        return out

    class TreeProbs(nn.Module):
        def __init__(self, parent):
            super().__init__()
            self.chains = chains(parent)

        def forward(self, probs):
            # probs: [B, N]
            picked = []
            for chain in self.chains:
                picked.append(probs.gather(1, torch.tensor(chain)).prod(1))
            return torch.stack(picked, 1)
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(4, 3).gather(1, torch.tensor([0, 2]))


def test_sequence_of_floats_made_a_tensor_is_a_float_index(torch):
    code = """
    from typing import Sequence

    import torch

    def lookup(values, where: Sequence[float]):
        return values.index_select(0, torch.as_tensor(where))
    """
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="int32 or int64"):
        torch.randn(5).index_select(0, torch.as_tensor([1.0, 2.0]))


def test_a_fixed_tuple_annotation_and_a_matching_rank_are_silent():
    code = """
    import torch

    def pick(vec, cols: list[int], pair: tuple[int, int]):
        a = vec.index_select(0, torch.tensor(cols))
        b = torch.tensor(pair)
        return a, b.gather(0, torch.tensor(cols))
    """
    assert codes(code) == []


# ----- a float default left out by the constructor call is that float -------------------------------

_DEFAULT_ALPHA = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class BinaryFocal(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0):
        super().__init__()
        if isinstance(alpha, float):
            alpha = torch.tensor([alpha, 1 - alpha])
        else:
            alpha = torch.tensor(alpha)
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, logits, target):
        logpt = F.log_softmax(logits, dim=1).gather(1, target.view(-1, 1)).view(-1)
        at = self.alpha.gather(0, target.view(-1))
        return (-at * (1 - logpt.exp()) ** self.gamma * logpt).mean()

class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 6)
        self.crit = BinaryFocal(ALPHA)

    def forward(self, x, y):
        return self.crit(self.fc(x), y)

if __name__ == "__main__":
    print(Classifier()(torch.randn(4, 10), torch.randint(0, 6, (4,))))
"""


def test_default_float_alpha_of_a_loss_built_inside_another_module(torch):
    found = lint(_DEFAULT_ALPHA.replace("BinaryFocal(ALPHA)", "BinaryFocal()"))
    assert [f.code for f in found] == ["GL011"] and found[0].line == 18
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.tensor([0.25, 0.75]).gather(0, torch.tensor([5]))


def test_a_given_per_class_alpha_replaces_the_float_default():
    assert codes(_DEFAULT_ALPHA.replace("BinaryFocal(ALPHA)", "BinaryFocal([0.1, 0.2, 0.2, 0.2, 0.2, 0.1])")) == []
    assert codes(_DEFAULT_ALPHA.replace("BinaryFocal(ALPHA)", "BinaryFocal(alpha=0.5)")) == ["GL011"]


# ----- pooling layers in a network's Sequential -------------------------------------------------------

@pytest.mark.parametrize("layer, shape", [
    ("MaxPool2d(2)", (5, 8, 12, 12)),
    ("AvgPool1d(3, stride=2, padding=1)", (2, 4, 9)),
    ("AdaptiveAvgPool2d(1)", (5, 16, 6, 6)),
    ("AdaptiveMaxPool2d((None, 3))", (2, 3, 7, 9)),
    ("MaxPool3d(kernel_size=2, stride=1)", (1, 2, 4, 5, 6)),
])
def test_pooling_layer_output_sizes_match_torch(torch, layer, shape):
    from gather_lint.static import modules
    from gather_lint.dims import Shape

    node = ast.parse(layer, mode="eval").body
    def value(n):
        if isinstance(n, ast.Constant):
            return DimVal(n.value) if isinstance(n.value, int) else Literal(n.value)
        return SeqVal(tuple(value(e) for e in n.elts))
    built = modules.build(node.func.id, [value(a) for a in node.args], {k.arg: value(k.value) for k in node.keywords})
    out = built.apply(TensorVal(Shape(shape)))
    expected = tuple(getattr(torch.nn, node.func.id)(*[eval(ast.unparse(a)) for a in node.args],
                                                     **{k.arg: eval(ast.unparse(k.value)) for k in node.keywords})(
        torch.randn(*shape)).shape)
    assert tuple(out.shape.dims) == expected


def test_a_pooled_cnn_head_gives_the_q_values_a_flat_action_index_is_checked_against(torch):
    code = """
    import torch
    import torch.nn as nn

    class Encoder(nn.Module):
        def __init__(self, n_out):
            super().__init__()
            self.trunk = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                       nn.Conv2d(8, 16, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.out = nn.Linear(16, n_out)

        def forward(self, img):
            return self.out(self.trunk(img))

    if __name__ == "__main__":
        enc = Encoder(4)
        frames, picks = torch.randn(5, 3, 12, 12), torch.randint(0, 4, (5,))
        print(enc(frames).gather(1, picks))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(5, 4).gather(1, torch.randint(0, 4, (5,)))


def test_padding_in_a_list_passed_to_the_constructor_of_an_index_is_tracked(torch):
    code = """
    import torch

    def first_tokens(log_probs, ids):
        idx = torch.tensor(ids)
        return log_probs.gather(-1, idx.unsqueeze(-1))

    if __name__ == "__main__":
        print(first_tokens(torch.randn(2, 3, 10).log_softmax(-1), [[1, 2, -100], [4, -100, -100]]))
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.randn(2, 3, 10).gather(-1, torch.tensor([[1, 2, -100], [4, -100, -100]]).unsqueeze(-1))


# ----- median / mode / kthvalue return (values, indices) like max(dim) ------------------------------

@pytest.mark.parametrize("made, gathered_dim", [
    ("_, where = feats.median(dim=1, keepdim=True)", 2),
    ("where = feats.kthvalue(2, 1, keepdim=True).indices", 2),
    ("where = torch.mode(feats, 1, keepdim=True)[1]", 2),
    ("where = feats.mode(keepdim=True).indices", 1),  # mode() reduces the last dim
])
def test_positions_from_order_statistics_used_along_another_dim(torch, made, gathered_dim):
    code = f"""
    import torch

    def pick(feats):
        # feats: [B, N, D]
        {made}
        return feats.gather({gathered_dim}, where)
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL004"]
    feats = torch.randn(2, 7, 3)
    scope = {"torch": torch, "feats": feats}
    exec(made, scope)
    if gathered_dim == 2:  # positions in N (size 7) along D (size 3): the large ones raise
        with pytest.raises(RuntimeError, match="out of bounds"):
            feats.gather(gathered_dim, torch.full_like(scope["where"], 6))
    else:  # positions in D (size 3) along N (size 7): they fit, and read the wrong entries silently
        where = scope["where"]
        assert not torch.equal(feats.gather(1, where), feats.gather(2, where))


def test_positions_from_order_statistics_along_their_own_dim_are_silent():
    code = """
    import torch

    def pick(feats):
        # feats: [B, N, D]
        a = feats.gather(1, feats.median(dim=1, keepdim=True)[1])
        b = feats.gather(-1, feats.mode(keepdim=True).indices)
        return a, b, feats.median()
    """
    assert codes(code) == []


# ----- subclasses of the file's classes run the inherited __init__ and methods ------------------------

def test_subclass_overriding_forward_keeps_the_parents_layers_and_helper(torch):
    code = """
    import torch
    import torch.nn as nn

    class QNet(nn.Module):
        def __init__(self, obs_dim, n_actions):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU())
            self.adv = nn.Linear(32, n_actions)

        def forward(self, obs):
            return self.adv(self.body(obs))

        def taken(self, obs, acts):
            return self(obs).gather(1, acts)

    class Dueling(QNet):
        def forward(self, obs):
            a = self.adv(self.body(obs))
            return a - a.mean(1, keepdim=True)

    if __name__ == "__main__":
        net = Dueling(4, 3)
        print(net.taken(torch.randn(8, 4), torch.randint(0, 3, (8,))))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(8, 3).gather(1, torch.randint(0, 3, (8,)))


def test_loss_subclass_reads_a_buffer_its_base_registered(torch):
    code = """
    import torch
    import torch.nn as nn

    class ClassWeighted(nn.Module):
        def __init__(self, weights):
            super().__init__()
            self.register_buffer("w", torch.tensor(weights))

    class Focal(ClassWeighted):
        def forward(self, logits, y):
            return self.w.gather(0, y) * logits.gather(1, y[:, None])[:, 0]

    if __name__ == "__main__":
        crit = Focal([0.5, 0.5])
        print(crit(torch.randn(8, 5), torch.randint(0, 5, (8,))))
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.tensor([0.5, 0.5]).gather(0, torch.tensor([4]))


@pytest.mark.parametrize("n_classes, expected", [(5, []), (3, ["GL011"])])
def test_subclass_passing_its_weights_to_super_init_gets_the_parents_buffer(torch, n_classes, expected):
    code = f"""
    import torch
    import torch.nn as nn

    class ClassWeighted(nn.Module):
        def __init__(self, weights):
            super().__init__()
            self.register_buffer("w", torch.tensor(weights))

    class Focal(ClassWeighted):
        def __init__(self, n_classes, gamma=2.0):
            super().__init__([1.0] * n_classes)
            self.gamma = gamma

        def forward(self, logits, y):
            return self.w.gather(0, y) * logits.gather(1, y[:, None])[:, 0]

    if __name__ == "__main__":
        crit = Focal({n_classes})
        print(crit(torch.randn(8, 5), torch.randint(0, 5, (8,))))
    """
    assert codes(code) == expected
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.tensor([1.0] * 3).gather(0, torch.tensor([4]))


def test_a_parent_init_that_is_never_called_builds_nothing():
    code = """
    import torch
    import torch.nn as nn

    class ClassWeighted(nn.Module):
        def __init__(self, weights):
            super().__init__()
            self.register_buffer("w", torch.tensor(weights))

    class Focal(ClassWeighted):
        def __init__(self, n_classes):
            nn.Module.__init__(self)
            self.register_buffer("w", torch.ones(n_classes))

        def forward(self, logits, y):
            return self.w.gather(0, y) * logits.gather(1, y[:, None])[:, 0]

    if __name__ == "__main__":
        print(Focal(5)(torch.randn(8, 5), torch.randint(0, 5, (8,))))
    """
    assert codes(code) == []


# ----- runs of like values: tuple(gen) of (key, value) pairs passed to a helper ------------------------

@pytest.mark.parametrize("build", [
    "tuple((torch.randn(2, 6, 5), torch.randn(2, 6, 5)) for _ in range(n_layers))",
    "[(torch.randn(2, 6, 5), torch.randn(2, 6, 5)) for _ in range(n_layers)]",
])
def test_cache_entries_built_as_a_run_of_pairs_reach_the_helper_that_reorders_them(torch, build):
    code = f"""
    import torch

    def reorder(cache, rows):
        return tuple(tuple(t.gather(0, rows) for t in pair) for pair in cache)

    def make(n_layers):
        return {build}

    if __name__ == "__main__":
        print(reorder(make(3), torch.tensor([1, 0])))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(2, 6, 5).gather(0, torch.tensor([1, 0]))


def test_a_tuple_of_tensors_with_different_shapes_gives_its_loop_no_shape():
    code = """
    import torch

    def pick(rows):
        out = []
        for t in (torch.randn(2, 5), torch.randn(2, 5, 3)):
            out.append(t.index_select(0, rows))
        return out
    """
    assert codes(code) == []


# ----- settings in a namespace: SimpleNamespace(...) / argparse.Namespace(...) -----------------------

@pytest.mark.parametrize("made", [
    "SimpleNamespace(dim=8, n_classes=5, alpha=0.25)",
    "argparse.Namespace(dim=8, n_classes=5, alpha=0.25)",
])
def test_namespace_settings_size_the_model_and_build_the_loss_weights(torch, made):
    code = f"""
    import argparse
    from types import SimpleNamespace

    import torch
    import torch.nn as nn

    class Focal(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.alpha = torch.tensor([cfg.alpha, 1 - cfg.alpha])

        def forward(self, logits, y):
            return self.alpha.gather(0, y) * logits.gather(1, y[:, None])[:, 0]

    def build(opts):
        return nn.Linear(opts.dim, opts.n_classes), Focal(opts)

    if __name__ == "__main__":
        opts = {made}
        head, crit = build(opts)
        x, y = torch.randn(6, opts.dim), torch.randint(0, opts.n_classes, (6,))
        print(crit(head(x), y))
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.tensor([0.25, 0.75]).gather(0, torch.tensor([3]))


def test_a_namespace_setting_it_does_not_hold_stays_unknown():
    code = """
    from types import SimpleNamespace
    import torch

    def pick(opts, y):
        w = torch.ones(opts.n_classes)
        return w.gather(0, y)

    if __name__ == "__main__":
        print(pick(SimpleNamespace(dim=8), torch.randint(0, 5, (6,))))
    """
    assert codes(code) == []
