"""Named sizes through slicing, flattening and view: `[B, T-1]`, `[B*T, V]`, `[batch, 1]`."""
import pytest

from .conftest import codes, lint

TEMPLATE = """
import torch
def f(logits, labels, mask):
    # logits: [B, T, V]  labels: [B, T]  mask: [B, T]
    {body}
"""


@pytest.mark.parametrize("body", [
    # next-token log-probs on shifted views, then masked: [B, T-1, 1] * [B, T-1]
    "lp = logits[:, :-1].log_softmax(-1).gather(-1, labels[:, 1:].unsqueeze(-1))\n    return lp * mask[:, 1:]",
    # the flat form: [B*T, 1] * [B*T]
    "lp = logits.view(-1, logits.size(-1)).gather(1, labels.view(-1, 1))\n    return lp * mask.view(-1)",
    "lp = logits.flatten(0, 1).gather(1, labels.reshape(-1, 1))\n    return lp * mask.flatten()",
])
def test_named_sizes_meet_again(body):
    assert codes(TEMPLATE.format(body=body)) == ["GL006"]


def test_what_torch_does_with_the_flat_form(torch):
    B, T, V = 2, 3, 5
    logits, labels, mask = torch.randn(B, T, V), torch.randint(V, (B, T)), torch.ones(B, T)
    lp = logits.view(-1, V).gather(1, labels.view(-1, 1))
    assert (lp * mask.view(-1)).shape == (B * T, B * T)
    lp = logits[:, :-1].gather(-1, labels[:, 1:].unsqueeze(-1))
    assert (lp * mask[:, 1:]).shape == (B, T - 1, T - 1)  # B == T - 1 here: silently


def test_a_column_view_of_a_vector_keeps_its_name():
    code = """
    import torch
    def f(scores, target):
        # scores: [batch, C]  target: [batch]
        picked = scores.gather(1, target.view(-1, 1))
        return picked * target.float()
    """
    [finding] = lint(code)
    assert finding.code == "GL006" and "[batch, 1]" in finding.message


@pytest.mark.parametrize("body", [
    "return logits[:, :-1].gather(-1, labels[:, :-1].unsqueeze(-1)).squeeze(-1) * mask[:, 1:]",  # T-1 == T-1
    "return logits.view(-1, 7).gather(1, labels.view(-1, 1))",  # V is not known to be 7: no name for -1
])
def test_no_finding_without_a_certain_name(body):
    assert "GL006" not in codes(TEMPLATE.format(body=body))
    assert "GL001" not in codes(TEMPLATE.format(body=body))


def test_nonzero_is_always_two_dimensional_and_size_is_one_int(torch):
    code = """
    import torch
    def mark(kinds: torch.Tensor, wanted):
        out = torch.zeros(kinds.size(0))
        hits = (kinds == wanted).nonzero()
        return out.scatter_(0, hits, 1.0)
    """
    assert codes(code) == ["GL001"]
    kinds = torch.tensor([1, 0, 2, 0])
    assert (kinds == 0).nonzero().shape == (2, 1)
    try:
        torch.zeros(kinds.size(0)).scatter_(0, (kinds == 0).nonzero(), 1.0)
        raised = False
    except RuntimeError:
        raised = True
    assert raised


@pytest.mark.parametrize("index", ["hits.squeeze(1)", "hits[:, 0]", "(kinds == wanted).nonzero(as_tuple=True)[0]"])
def test_vectors_from_nonzero_are_fine(index):
    code = f"""
    import torch
    def mark(kinds: torch.Tensor, wanted):
        out = torch.zeros(kinds.size(0))
        hits = (kinds == wanted).nonzero()
        return out.scatter_(0, {index}, 1.0)
    """
    assert codes(code) == []


@pytest.mark.parametrize("body, shape, probe", [
    ("out = feats.unflatten(1, (2, -1))", (4, 2, 3, 5), "(1, 2, 3, 1)"),
    ("out = feats.movedim(1, -1)", (4, 5, 6), "(1, 5, 1)"),
    ("out = torch.moveaxis(feats, -1, 0)", (5, 4, 6), "(1, 4, 1)"),
])
def test_unflatten_and_movedim(body, shape, probe, torch):
    # a probe index of the right rank with size 1 on the last dim: GL005 only if the shape is known
    code = f"""
import torch
feats = torch.randn(4, 6, 5)
{body}
picked = out.gather(0, torch.zeros{probe}.long())
"""
    assert codes(code) == ["GL005"]
    scope = {}
    exec(code, scope)
    assert tuple(scope["out"].shape) == shape
