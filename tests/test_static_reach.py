"""Facts that reach the faulty call from further away: index lists that can be empty (float32 from
torch.tensor), 0-d tensors made from Python numbers, sizes spread with `*` from shapes and config
tuples. Each claim is checked against torch on the same code."""
import textwrap

import pytest

from .conftest import codes, lint


def run(code: str, **inputs):
    scope = dict(inputs)
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    return scope


# ----- torch.tensor(filtered list) without a dtype ---------------------------------------------

FILTERED = """
import torch

def pick(table, lengths, limit):
    short = [k for k, n in enumerate(lengths) if n <= limit]
    return {call}
"""


@pytest.mark.parametrize("call, fires", [
    ("table.index_select(0, torch.tensor(short))", True),
    ("torch.index_select(table, 0, torch.as_tensor(short))", True),
    ("table.index_add(0, torch.tensor(short), table[:len(short)])", True),
    ("table.index_copy(0, torch.tensor(short), table[:len(short)])", True),
    ("torch.take_along_dim(table, torch.tensor(short).view(-1, 1), dim=0)", True),
    ("table.index_select(0, torch.tensor(short, dtype=torch.long))", False),
    ("table.index_select(0, torch.LongTensor(short))", False),
    # gather and scatter check nothing, dtype included, for an empty index
    ("table.gather(0, torch.tensor(short).view(-1, 1).expand(-1, 3))", False),
    ("table.scatter(0, torch.tensor(short).view(-1, 1).expand(-1, 3), 1.0)", False),
])
def test_filtered_list_index(call, fires, torch):
    code = FILTERED.format(call=call)
    assert ("GL008" in codes(code)) == fires, call
    pick = run(code)["pick"]
    table = torch.randn(5, 3)
    pick(table, [1, 4, 2], 3)  # something passes the filter: every spelling runs
    try:
        pick(table, [7, 9], 3)  # nothing passes: torch.tensor([]) is float32
        raised = False
    except (RuntimeError, IndexError) as exc:
        raised = "dtype" in str(exc) or "long" in str(exc).lower()
    assert raised == fires, call


def test_filtered_list_message_names_filter_and_fix():
    found = [f for f in lint(FILTERED.format(call="table.index_select(0, torch.tensor(short))")) if f.code == "GL008"]
    assert len(found) == 1
    message = found[0].message
    assert "`if n <= limit`" in message and "float32" in message and "dtype=torch.long" in message


def test_inline_comprehension_and_other_names():
    code = """
    import torch
    def keep_rows(feats, tokens, pad_id):
        return torch.index_select(feats, 0, torch.tensor([i for i, t in enumerate(tokens) if t != pad_id]))
    """
    assert codes(code) == ["GL008"]


@pytest.mark.parametrize("body", [
    # the function tests the list: it knows about the empty case
    "    if not short:\n        return table[:0]\n    return table.index_select(0, torch.tensor(short))",
    "    assert len(short) > 0\n    return table.index_select(0, torch.tensor(short))",
    "    return table.index_select(0, torch.tensor(short)) if short else table[:0]",
])
def test_guarded_list_is_silent(body):
    code = ("import torch\n\ndef pick(table, lengths, limit):\n"
            "    short = [k for k, n in enumerate(lengths) if n <= limit]\n" + body + "\n")
    assert codes(code) == []


def test_unfiltered_comprehension_is_silent():
    code = """
    import torch
    def pick(table, spans):
        starts = torch.tensor([s for s, _ in spans])
        return table.index_select(0, starts)
    """
    assert codes(code) == []


# ----- 0-d tensors from Python numbers -----------------------------------------------------------

ZERO_D = """
import torch

class SmoothedTargets:
    def __init__(self, n_classes, eps=0.1):
        self.n_classes = n_classes
        self.eps = eps

    def __call__(self, labels):
        # labels: [N, T]
        dist = torch.full((*labels.shape, self.n_classes), self.eps / (self.n_classes - 1))
        on_value = {on_value}
        return dist.scatter(-1, labels.unsqueeze(-1), on_value)
"""


@pytest.mark.parametrize("on_value, fires", [
    ("torch.tensor(1.0 - self.eps)", True),
    ("torch.as_tensor(1 - self.eps)", True),
    ("1.0 - self.eps", False),  # a Python number is the scalar `value` overload
    ("torch.tensor(1.0 - self.eps).item()", False),
])
def test_zero_d_src_to_scatter(on_value, fires, torch):
    code = ZERO_D.format(on_value=on_value)
    found = [f for f in lint(code) if f.code == "GL001"]
    assert bool(found) == fires, on_value
    if fires:
        assert "0-d" in found[0].message and ".item()" in found[0].message
    make = run(code)["SmoothedTargets"](5)
    labels = torch.randint(0, 5, (2, 3))
    if fires:
        with pytest.raises(RuntimeError, match="same number of dimensions as src"):
            make(labels)
    else:
        assert make(labels).shape == (2, 3, 5)


def test_float_annotation_makes_a_number():
    code = """
    import torch
    def smooth(labels, n: int, confidence: float):
        # labels: [B]
        target = torch.zeros(labels.size(0), n)
        return target.scatter_(1, labels[:, None], torch.tensor(confidence))
    """
    assert codes(code) == ["GL001"]


def test_unknown_operand_is_not_a_number():
    code = """
    import torch
    def smooth(labels, n, confidence):
        # labels: [B]
        target = torch.zeros(labels.size(0), n)
        return target.scatter_(1, labels[:, None], torch.tensor(1.0 - confidence))
    """
    assert codes(code) == []  # confidence may be an array or a tensor of any shape


# ----- sizes spread with * ----------------------------------------------------------------------

def test_config_tuple_spread_into_sizes(torch):
    code = """
    import torch

    def one_hot_volume(seg, n_cls):
        spatial = seg.shape[-3:]
        out = torch.zeros(seg.size(0), n_cls, *spatial)
        return out.scatter_(1, seg.unsqueeze(1), 1)

    def batch(settings):
        return torch.randint(0, settings["n_cls"], (settings["n"], 1, *settings["crop"]))

    settings = {"n": 2, "crop": (4, 6, 6), "n_cls": 3}
    labels = batch(settings)
    one_hot_volume(labels, settings["n_cls"])
    """
    assert "GL001" in codes(code)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run(code)


def test_starred_shape_in_tuple_keeps_rank():
    code = """
    import torch
    def scores(x, k):
        # x: [B, T, D]
        buf = torch.zeros((*x.shape[:-1], k))
        return buf.gather(2, torch.zeros(4, 5, dtype=torch.long))
    """
    assert codes(code) == ["GL001"]  # buf is 3-d, the index 2-d


def test_randint_with_unknown_high_has_no_bounds():
    code = """
    import torch
    def labels(cfg, table):
        # table: [4, 3]
        ids = torch.randint(0, cfg["classes"], (4, 1))
        return table.gather(1, ids)
    """
    assert codes(code) == []


# ----- GL018: labels gathered from a softmax over another dim -----------------------------------

NORMALISED = """
import torch
import torch.nn.functional as F

def picked(logits, labels):
    # logits: [N, T, K]
    {body}
"""


@pytest.mark.parametrize("body, fires", [
    ("return F.log_softmax(logits, dim=1).gather(2, labels.unsqueeze(-1))", True),
    ("lp = logits.log_softmax(1)\n    return lp.gather(-1, labels[..., None])", True),
    ("return torch.softmax(logits, 0).gather(2, labels.unsqueeze(-1))", True),
    ("return F.log_softmax(logits).gather(2, labels.unsqueeze(-1))", True),  # implicit dim: 0 for 3-d input
    ("return F.log_softmax(logits, dim=-1).gather(2, labels.unsqueeze(-1))", False),
    ("return logits.softmax(dim=2).gather(-1, labels.unsqueeze(-1))", False),
    ("return logits.gather(2, labels.unsqueeze(-1))", False),
])
def test_labels_from_other_normalised_dim(body, fires, torch):
    code = NORMALISED.format(body=body)
    assert ("GL018" in codes(code)) == fires, body
    import warnings

    torch.manual_seed(0)
    logits, labels = torch.randn(2, 3, 4), torch.randint(0, 4, (2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the implicit-dim deprecation warning
        out = run(code)["picked"](logits, labels)
    if "softmax" in body:  # torch agrees: only the flagged spellings differ from the per-class reference
        reference = F_log_or_prob(torch, logits, labels, "log_softmax" not in body)
        assert torch.allclose(out, reference) != fires, body


def F_log_or_prob(torch, logits, labels, prob: bool):
    dist = logits.softmax(-1) if prob else logits.log_softmax(-1)
    return dist.gather(2, labels.unsqueeze(-1))


def test_whole_distributions_picked_are_silent():
    code = """
    import torch
    def last_query_row(scores, pos):
        # scores: [B, H, Q, K]
        probs = scores.softmax(dim=-1)
        return probs.gather(2, pos.view(-1, 1, 1, 1).expand(-1, probs.size(1), 1, probs.size(3)))
    """
    assert codes(code) == []  # positions, not labels: a query row of attention is picked whole


def test_reassigned_or_parameter_input_is_silent():
    code = """
    import torch
    def pick(scores, target, temperature):
        # scores: [B, C]
        p = scores.log_softmax(0)
        p = (scores / temperature).log_softmax(1)
        return p.gather(1, target.unsqueeze(1))
    """
    assert codes(code) == []


# ----- GL019: gather/scatter along the dim an unsqueeze + expand/repeat broadcast ---------------

def test_gather_from_input_repeated_along_gathered_dim(torch):
    code = """
    import torch
    def neighbours(points, nbr):
        # points: [P, D], nbr: [P, M]
        table = points.unsqueeze(-2).expand(-1, points.size(0), -1)  # [P, P, D]
        index = nbr.unsqueeze(-1).expand(-1, -1, points.size(1))  # [P, M, D]
        return table.gather(1, index)
    """
    assert codes(code) == ["GL019"]
    points, nbr = torch.randn(4, 3), torch.randint(0, 4, (4, 2))
    out = run(code)["neighbours"](points, nbr)
    assert torch.equal(out, points.unsqueeze(1).expand(-1, 2, -1))  # torch agrees: the index changed nothing
    assert not torch.equal(out, points[nbr])


def test_scatter_with_index_expanded_along_scatter_dim(torch):
    code = """
    import torch
    def segment_sum(values, seg, n_seg):
        # values: [R, F], seg: [R]
        out = torch.zeros(n_seg, values.size(1))
        return out.scatter_add(1, seg.unsqueeze(1).expand_as(values), values)
    """
    assert codes(code) == ["GL019"]
    values, seg = torch.randn(3, 4), torch.tensor([0, 2, 2])
    out = run(code)["segment_sum"](values, seg, 3)  # sizes fit: torch runs it, silently
    reference = torch.zeros(3, 4).index_add(0, seg, values)
    assert not torch.allclose(out, reference)


@pytest.mark.parametrize("made", [
    "x.unsqueeze(1).expand(-1, 5, -1)",  # broadcast on dim 1, gathered on dim 2
    "x.unsqueeze(2).expand(-1, -1, -1)",  # -1 keeps the size-1 dim: nothing spread
    "x.unsqueeze(-1).repeat(1, 1, 1)",
])
def test_other_broadcast_dims_are_silent(made):
    code = f"""
    import torch
    def pick(x, idx):
        # x: [B, N], idx: [B, 5, 3]
        table = {made}
        return table.gather(2, idx)
    """
    assert "GL019" not in codes(code)


def test_wrong_gather_dim_is_reported_once_by_gl004():
    code = """
    import torch
    def token_logps(logits, input_ids, k):
        # logits: [B, L, V], input_ids: [B, L]
        log_probs = logits.log_softmax(dim=-1)
        picked = log_probs.gather(1, input_ids.unsqueeze(-1))
        top = logits.topk(k, dim=1).indices  # [B, k, V]
        return picked, logits.gather(2, top[..., :1].expand(-1, -1, 1).unsqueeze(-1).expand(-1, -1, -1, 1).squeeze(-1))
    """
    found = codes(code)
    assert "GL004" in found and "GL018" not in found and "GL019" not in found
