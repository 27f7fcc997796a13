"""GL003 by the rows' history: a scatter or index op whose src rows were made from a cut of its own index.

Each program runs in torch first (the oracle: with data where the cut leaves an entry out, the op
raises), then through the linter: reported at the op; silent when the index is the cut the rows were
made from, and on near misses (a cut of another dim, an unrelated tensor, a boolean mask, a name the
function binds twice).
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

# capacity-limited routing in a module: the expert runs on the kept tokens, the write uses all of them
CAPACITY_MODULE = """
import torch
import torch.nn as nn


class CappedExperts(nn.Module):
    def __init__(self, width, n_experts, capacity):
        super().__init__()
        self.capacity = capacity
        self.gate = nn.Linear(width, n_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))
                                     for _ in range(n_experts))

    def forward(self, tokens):
        choice = self.gate(tokens).argmax(dim=-1)
        mixed = torch.zeros_like(tokens)
        for e, ffn in enumerate(self.experts):
            rows = torch.where(choice == e)[0]
            taken = rows[: self.capacity]
            mixed.index_copy_(0, {index}, ffn(tokens[taken]))  # expect
        return mixed


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = CappedExperts(4, 1, capacity=3)
    RESULT = layer(torch.randn(7, 4))
"""

# the same mistake in a plain function, the cut written inline, the function form of index_add
CAPACITY_FUNCTION = """
import torch
import torch.nn.functional as F


def dispatch(hidden, slots, weight, budget):
    # hidden: [N, D]  slots: [N] expert of every token
    out = hidden.clone()
    for k in range(int(slots.max()) + 1):
        picked = (slots == k).nonzero().squeeze(-1)
        update = F.relu(hidden[picked[:budget]] @ weight) * 0.5
        out = torch.index_add(out, 0, {index}, update)  # expect
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    RESULT = dispatch(torch.randn(9, 3), torch.zeros(9, dtype=torch.long), torch.randn(3, 3), 4)
"""

# one prototype per distinct label, written back per sample: the unique() cut
PROTOTYPES = """
import torch


class PrototypeBank:
    def __init__(self, n_classes, dim):
        self.bank = torch.zeros(n_classes, dim)

    def update(self, feats, labels):
        sums = torch.zeros_like(self.bank).index_add_(0, labels, feats)
        classes, counts = torch.unique(labels, return_counts=True)
        means = sums[classes] / counts[:, None]
        self.bank.scatter_(0, {index}[:, None].expand(-1, feats.size(1)), means)  # expect
        return self.bank


if __name__ == "__main__":
    bank = PrototypeBank(5, 2)
    RESULT = bank.update(torch.randn(6, 2), torch.tensor([0, 0, 3, 3, 3, 1]))
"""

STYLES = {
    "capacity-module-index-copy": (CAPACITY_MODULE, "rows", "taken"),
    "capacity-function-inline-cut": (CAPACITY_FUNCTION, "picked", "picked[:budget]"),
    "unique-prototypes-scatter": (PROTOTYPES, "labels", "classes"),
}


def _program(template: str, index: str) -> str:
    return textwrap.dedent(template).replace("{index}", index)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_src_rows_from_a_cut_of_the_index_are_reported_and_torch_raises(style, torch):
    template, full, _ = STYLES[style]
    bad = _program(template, full)
    found = [f for f in lint(bad) if f.code == "GL003"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "cut" not in found[0].message or "one row per entry of" in found[0].message
    with pytest.raises((RuntimeError, IndexError)):
        run_program(bad)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_cut_as_index_is_silent_and_torch_runs(style, torch):
    template, _, cut = STYLES[style]
    good = _program(template, cut)
    assert [f.code for f in lint(good)] == []
    run_program(good)


INDEX_CUT_SOURCE_WHOLE = """
import torch


def add_back(out, x, idx, cap):
    out.index_add_(0, idx[:cap], torch.tanh(x[idx]))
    return out


RESULT = None
if __name__ == "__main__":
    RESULT = add_back(torch.zeros(5, 2), torch.randn(5, 2), torch.tensor([4, 1, 2]), 2)
"""


def test_an_index_cut_against_a_whole_source_is_reported_and_torch_raises(torch):
    library = INDEX_CUT_SOURCE_WHOLE.split("RESULT = None")[0]  # no driver: no sizes for the shapes to compare
    found = [f for f in lint(library) if f.code == "GL003"]
    assert [f.line for f in found] == [6], lint(library)
    assert "fewer indices than source rows" in found[0].message
    with pytest.raises((RuntimeError, IndexError)):
        run_program(INDEX_CUT_SOURCE_WHOLE)


@pytest.mark.parametrize("code", [
    # the cut is of the feature dim: one row per entry of idx all the same
    """
    import torch
    def write(out, x, idx, k):
        out.index_copy_(0, idx, x[idx][:, :k])
        return out
    """,
    # a slice of another tensor, not of the index
    """
    import torch
    def write(out, idx, values, n):
        out.index_add_(0, idx, values[:n])
        return out
    """,
    # both sides from the same cut
    """
    import torch
    def write(out, x, idx, n):
        kept = idx[:n]
        out.index_add_(0, kept, x[kept] * 2)
        return out
    """,
    # a boolean mask picks the rows: its Trues, not a cut of idx's entries
    """
    import torch
    def write(out, x, idx, keep):
        mask = keep > 0
        out.index_add_(0, idx, x[mask])
        return out
    """,
    # idx is bound twice: which binding reaches the call is not known by syntax
    """
    import torch
    def write(out, x, idx, n):
        rows = x[idx[:n]]
        idx = idx[:n]
        out.index_add_(0, idx, rows)
        return out
    """,
    # unique of the index, written with the unique values
    """
    import torch
    def refresh(bank, feats, labels):
        used = labels.unique()
        bank.index_copy_(0, used, feats[used])
        return bank
    """,
    # a scatter whose index is the cut and src the whole: scatter reads only the first rows of src
    """
    import torch
    def first_rows(out, src, idx, n):
        return out.scatter(0, idx[:n, None].expand(-1, src.size(1)), src[idx])
    """,
    # a dict written by key with a slice of its own entry: no tensor index at all
    """
    import torch
    def trim(outputs, names, scores, idx):
        for name in names:
            outputs[name] = outputs[name][:-1]
        return scores.gather(1, idx)
    """,
])
def test_near_misses_stay_silent(code):
    assert [f.code for f in lint(textwrap.dedent(code))] == []


# the write by subscript: `out[idx] = v` and `out[idx, :] += v` (in a block that also names a family op)
ROUTER_WRITES = """
import torch
import torch.nn as nn


class Router(nn.Module):
    def __init__(self, d, cap):
        super().__init__()
        self.cap = cap
        self.ffn = nn.Linear(d, d)

    def forward(self, x, scores):
        best = scores.argmax(-1)
        out = torch.zeros_like(x)
        for e in range(scores.size(-1)):
            idx = (best == e).nonzero(as_tuple=True)[0]
            kept = idx[: self.cap]
            out[{key}] {op} self.ffn(x[kept])  # expect
        return out * scores.gather(-1, best[:, None])


if __name__ == "__main__":
    torch.manual_seed(0)
    router = Router(3, cap=2)
    RESULT = router(torch.randn(6, 3), torch.zeros(6, 1))
"""


@pytest.mark.parametrize("op", ["=", "+="])
def test_a_subscript_write_of_rows_from_a_cut_is_reported_and_torch_raises(op, torch):
    key = "idx" if op == "=" else "idx, :"
    bad = textwrap.dedent(ROUTER_WRITES).replace("{op}", op).replace("{key}", key)
    found = [f for f in lint(bad) if f.code == "GL003"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert f"{op} ...`" in found[0].message
    with pytest.raises(RuntimeError):
        run_program(bad)


@pytest.mark.parametrize("op", ["=", "+="])
def test_a_subscript_write_at_the_cut_is_silent_and_torch_runs(op, torch):
    good = textwrap.dedent(ROUTER_WRITES).replace("{op}", op).replace("{key}", "kept" if op == "=" else "kept, :")
    assert [f.code for f in lint(good)] == []
    run_program(good)


@pytest.mark.parametrize("cut", ["idx[valid > 0]", "idx[~(valid <= 0)]", "idx.narrow(0, 0, 2)", "idx.masked_select(valid > 0)"])
def test_other_spellings_of_a_cut_are_reported_and_torch_raises(cut, torch):
    code = f"""
    import torch
    def write(out, x, idx, valid, w):
        keep = {cut}
        out.index_add_(0, idx, x[keep] @ w)
        return out
    """
    assert [(f.code, f.line) for f in lint(code)] == [("GL003", 5)], lint(code)
    scope: dict = {}
    exec(textwrap.dedent(code), scope)
    with pytest.raises((RuntimeError, IndexError)):
        scope["write"](torch.zeros(4, 2), torch.randn(4, 2), torch.tensor([3, 1, 0]), torch.tensor([1, 0, 1]), torch.randn(2, 2))


def test_a_mask_of_the_source_rows_is_not_a_cut_of_the_index():
    code = """
    import torch
    def write(out, x, idx, ok):
        return out.index_add_(0, idx, x[ok > 0])
    """
    assert lint(code) == []


EXPERT_LIST = """
import torch
import torch.nn as nn


class Experts(nn.Module):
    def __init__(self, d, n, cap):
        super().__init__()
        self.cap = cap
        self.experts = nn.ModuleList([nn.Linear(d, d) for _ in range(n)])

    def forward(self, x, choice):
        out = torch.zeros_like(x)
        for e in range(len(self.experts)):
            idx = torch.nonzero(choice == e).squeeze(1)
            top = idx[: self.cap]
            y = self.experts[e](x[top])
            out.index_add_(0, {index}, y)  # expect
        return out


if __name__ == "__main__":
    RESULT = Experts(2, 2, cap=1)(torch.randn(4, 2), torch.tensor([0, 0, 1, 1]))
"""


def test_an_element_of_a_module_list_keeps_the_rows_and_torch_raises(torch):
    bad = _program(EXPERT_LIST, "idx")
    assert [(f.code, f.line) for f in lint(bad)] == [("GL003", n) for n in expected_lines(bad)], lint(bad)
    with pytest.raises(RuntimeError):
        run_program(bad)
    good = _program(EXPERT_LIST, "top")
    assert lint(good) == []
    run_program(good)


@pytest.mark.parametrize("whole", ["idx[:]", "idx[0:]", "idx[:len(idx)]", "idx[: idx.size(0)]", "idx[:idx.shape[0]]"])
def test_a_slice_that_keeps_every_entry_is_no_cut(whole):
    code = f"""
    import torch
    def write(out, x, idx):
        keep = {whole}
        return out.index_add_(0, idx, x[keep])
    """
    assert lint(code) == []


def test_unique_of_a_two_dim_index_counts_elements_not_rows():
    code = """
    import torch
    def write(out, table, pairs):
        # pairs: [N, 2]
        used = pairs.unique()
        return out.scatter(0, pairs, table[used])
    """
    assert [f for f in lint(code) if "cut" in f.message or "one row per entry" in f.message] == []


@pytest.mark.parametrize("picked", ["x.index_select(0, keep)", "torch.index_select(x, 0, keep)",
                                    "x.gather(0, keep[:, None].expand(-1, x.size(1)))"])
def test_rows_picked_by_index_select_or_gather_follow_the_cut(picked, torch):
    code = f"""
    import torch
    def write(out, x, idx, cap):
        keep = idx[:cap]
        out.index_add_(0, idx, {picked})
        return out
    """
    assert [(f.code, f.line) for f in lint(code)] == [("GL003", 5)], lint(code)
    scope: dict = {}
    exec(textwrap.dedent(code), scope)
    with pytest.raises((RuntimeError, IndexError)):
        scope["write"](torch.zeros(4, 2), torch.randn(4, 2), torch.tensor([3, 1, 0]), 2)
