"""GL017: `x[:, idx]` with one index per row. Each case is checked in torch: the flagged ones give the
crossed [B, B]-like result, the silent ones are either correct column selections or unknowable."""
import pytest

from .conftest import codes, lint


def test_labels_per_row_with_jaxtyping_shapes(torch):
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor
    def nll(scores: Float[Tensor, "n k"], y: Int[Tensor, "n"]):
        picked = scores.log_softmax(-1)[:, y]
        return -picked.mean()
    """
    assert codes(code) == ["GL017"]
    scores, y = torch.randn(5, 3), torch.randint(3, (5,))
    assert scores[:, y].shape == (5, 5)


def test_argmax_over_the_indexed_dim_is_a_pick_per_row(torch):
    code = """
    import torch
    def greedy_value(q_next):
        q_next = q_next  # [N, M]
        best = q_next.argmax(dim=1)
        return q_next[:, best]
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL017"]
    assert "[N, N]" in found[0].message and "q_next.gather(1, best.unsqueeze(1)).squeeze(1)" in found[0].message
    q = torch.randn(4, 6)
    assert q[:, q.argmax(dim=1)].shape == (4, 4)


def test_topk_positions_per_row(torch):
    code = """
    import torch
    def f(sim):
        sim = sim  # [Q, P]
        nearest = sim.topk(3, dim=-1).indices
        return sim[:, nearest]
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL017"]
    assert "[Q, Q, 3]" in found[0].message and "sim.gather(1, nearest)" in found[0].message
    sim = torch.randn(4, 7)
    assert sim[:, sim.topk(3, dim=-1).indices].shape == (4, 4, 3)


def test_second_dim_index_with_leading_batch_and_time(torch):
    code = """
    import torch
    def f(logits, target_ids):
        logits = logits  # [B, T, V]
        target_ids = target_ids  # [B, T]
        return logits[:, :, target_ids]
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL017"]
    assert "[B, T, B, T]" in found[0].message
    assert torch.randn(2, 3, 5)[:, :, torch.randint(5, (2, 3))].shape == (2, 3, 2, 3)


@pytest.mark.parametrize("body", [
    # one column list shared by every row
    "keep = torch.tensor([0, 2, 3])\n        return hidden[:, keep]",
    "perm = torch.randperm(hidden.size(1))\n        return hidden[:, perm]",
    # an index of unknown shape (it may be a single label)
    "return hidden[:, labels]",
    # both dims indexed: the per-row pick itself
    "return hidden[torch.arange(hidden.size(0)), labels]",
    # a mask, a write
    "return hidden[:, hidden.sum(0) > 0]",
])
def test_column_selections_and_unknown_indices_stay_silent(body):
    code = f"""
    import torch
    def f(hidden, labels):
        hidden = hidden  # [N, D]
        {body}
    """
    assert codes(code) == []


def test_row_lookup_by_label_is_not_a_column_index():
    code = """
    import torch
    def f(centers, labels):
        centers = centers  # [N, D]
        labels = labels  # [N]
        return centers[labels]
    """
    assert codes(code) == []


def test_writing_the_labels_of_each_row_as_columns_is_reported(torch):
    # one label per row written as columns: every row gets every label of the batch (a one-hot by columns)
    code = """
    import torch
    def f(onehot, labels):
        onehot = onehot  # [N, C]
        labels = labels  # [N]
        onehot[:, labels] = 1.0
        return onehot
    """
    assert codes(code) == ["GL017"]
    onehot = torch.zeros(3, 5)
    onehot[:, torch.tensor([0, 2, 4])] = 1.0
    assert onehot.sum(1).tolist() == [3.0, 3.0, 3.0]


def test_ids_made_for_another_dim_are_not_picks_into_this_one(torch):
    # values from argmax over dim 0 of an [N, C] tensor are row positions, used here as a shared row list:
    # no per-row pick (GL017), but row positions read along the columns (GL004, the rule index_select has)
    code = """
    import torch
    def f(x):
        x = torch.randn(6, 4)
        rows = x.argmax(dim=0)
        return x[:, rows]
    """
    assert codes(code) == ["GL004"]
    x = torch.zeros(6, 4)
    x[5, 0] = 1.0  # the row position 5 of column 0's maximum, used as a column
    with pytest.raises(IndexError):
        x[:, x.argmax(dim=0)]


def test_a_leading_dim_of_one_is_no_batch(torch):
    # positional tables kept as [1, max_len, D]: `pe[:, position_ids]` with [1, L] ids is no per-row pick
    code = """
    import torch
    def f(position_ids):
        pe = torch.zeros(1, 512, 64)
        position_ids = torch.randint(512, (1, 10))
        return pe[:, position_ids]
    """
    assert codes(code) == []


def test_square_matrix_with_a_permutation_stays_silent(torch):
    code = """
    import torch
    def f(adj):
        adj = adj  # [N, N]
        order = torch.randperm(adj.size(0))
        return adj[:, order]
    """
    assert codes(code) == []


def test_a_result_declared_one_per_row_is_evidence_for_any_index(torch):
    code = """
    import torch
    def f(q_all, a):
        # q_all: [N, M], a: [N]
        q_taken = q_all[:, a]  # [N]
        return q_taken
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL017"]
    assert "[N, N]" in found[0].message
    assert torch.randn(4, 3)[:, torch.tensor([0, 2, 1, 1])].shape == (4, 4)


def test_a_result_declared_as_the_crossed_shape_stays_silent():
    # pairwise scores on purpose: every row scored at every row's class
    code = """
    import torch
    def f(logits, a):
        # logits: [N, M], a: [N]
        pairwise = logits[:, a]  # [N, N]
        return pairwise
    """
    assert codes(code) == []


def test_index_select_with_labels_per_row(torch):
    code = """
    import torch
    def f(logits, targets):
        \"\"\"
        Args:
            logits (Tensor): shape (N, C)
            targets (Tensor): shape (N,)
        \"\"\"
        return torch.index_select(logits, 1, targets)
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL017"]
    assert "[N, N]" in found[0].message
    assert torch.randn(4, 3).index_select(1, torch.tensor([0, 2, 1, 1])).shape == (4, 4)


def test_index_select_of_a_shared_column_list_stays_silent():
    code = """
    import torch
    def f(logits, allowed_ids):
        \"\"\"
        Args:
            logits (Tensor): shape (N, V)
            allowed_ids (Tensor): shape (K,)
        \"\"\"
        return logits.index_select(1, allowed_ids)
    """
    assert codes(code) == []


@pytest.mark.parametrize("flat", ["view(-1)", "reshape(-1)", "flatten()", "squeeze(-1)"])
def test_a_column_of_labels_flattened_inline_is_still_one_per_row(flat, torch):
    code = f"""
    import torch
    def f(logits, labels):
        \"\"\"
        Args:
            logits (torch.Tensor): shape (batch_size, num_classes)
            labels (torch.LongTensor): shape (batch_size, 1)
        \"\"\"
        return logits[:, labels.{flat}]
    """
    assert codes(code) == ["GL017"]
    labels = torch.tensor([[2], [0], [1]])
    assert torch.randn(3, 4)[:, eval(f"labels.{flat}")].shape == (3, 3)


def test_combining_the_result_with_a_one_per_row_tensor_is_evidence(torch):
    code = """
    import torch
    def weighted(values, sel, weight):
        # values: [N, M], sel: [N], weight: [N]
        picked = values[:, sel]
        return (picked * weight).sum()
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL017"]
    assert found[0].line == 5 and "`weight` [N]" in found[0].message
    values, sel, weight = torch.randn(4, 3), torch.tensor([0, 2, 1, 1]), torch.randn(4)
    assert (values[:, sel] * weight).shape == (4, 4)


def test_a_crossed_result_used_whole_or_with_its_own_shape_stays_silent():
    code = """
    import torch
    def pairwise(values, sel, scale):
        # values: [N, M], sel: [N], scale: [N, N]
        grid = values[:, sel]
        return (grid * scale).mean() + grid.sum() + values[:, sel].max()
    """
    assert codes(code) == []


def test_files_are_parsed_for_gl017_only_when_they_spell_a_tensor_after_full_slices():
    from gather_lint.static.advanced_indexing import spelled_in

    for text in ("x[:, labels]", "x[:, :, ids]", "x[..., ids]", "x[:, labels.view(-1)]", "x[:, y[:, 0]]", "x[:, a, :]"):
        assert spelled_in(text), text
    for text in ("x[:, start:end]", "x[:, None]", "x[:, x.shape[1] - 1]", "x[labels]", "x[:, 0]"):
        assert not spelled_in(text), text


def test_subscript_writes_are_no_gl017_reads(torch):
    """`x[:, ids] = v` writes columns: a block spelling only writes is not parsed for GL017."""
    from gather_lint.static.advanced_indexing import spelled_in

    for text in ("x[:, ids] = v\n", "x[:, ids] += 1\n"):
        assert not spelled_in(text), text
    assert spelled_in("y = x[:, i] == 3\n")
    x = torch.zeros(3, 4)
    ids = torch.tensor([0, 2])
    x[:, ids] = 1.0  # a write: columns 0 and 2 of every row, nothing read
    assert x.sum().item() == 6


def test_counters_slices_and_types_admit_no_block_for_gl017(torch):
    """A range/enumerate counter is an int and `slice(...)` a slice: `x[:, i]` with either reads a column or a
    range, never per-row picks; `Callable[..., T]` is a type. A name bound otherwise (a parameter, a loop over
    a list of tensors, enumerate's item) can hold a tensor and still admits its block."""
    from gather_lint.static.advanced_indexing import spelled_in

    never = ("for i in range(n):\n    y = x[:, i]\n", "y = torch.stack([x[:, :, i] for i in range(k)])\n",
             "for i, row in enumerate(rows):\n    y = x[..., i]\n", "keep = slice(-k, None)\ny = h[:, keep, :]\n",
             "def f(fn: Callable[..., Tensor]):\n    pass\n")
    for text in never:
        assert not spelled_in(text), text
    can = ("def f(x, i):\n    return x[:, i]\n", "for i in idx_list:\n    y = x[:, i]\n",
           "for row, i in enumerate(rows):\n    y = x[:, i]\n",
           # a counter in one function does not make another function's parameter of that name an int
           "def f(x):\n    for idx in range(3):\n        pass\n\ndef g(x, idx):\n    return x[:, idx]\n")
    for text in can:
        assert spelled_in(text), text
    x = torch.arange(12).view(3, 4)
    assert x[:, 2].shape == (3,)  # a counter's column: one value per row, which GL017 never reports
    assert x[:, slice(-2, None)].shape == (3, 2)
    picks = torch.tensor([0, 3, 1])
    assert x[:, picks].shape == (3, 3)  # a tensor of per-row picks crosses rows with picks: GL017's case


def test_a_file_naming_no_op_is_still_checked(torch):
    code = """
    import torch
    def nll(scores, y):
        # scores: [N, K], y: [N]
        return -scores.log_softmax(-1)[:, y.view(-1)].mean()
    """
    assert codes(code) == ["GL017"]


ONE_ROW = """
import torch
from jaxtyping import Float, Int

def target_logits(logits: Float[torch.Tensor, "batch classes"], {INDEX}: Int[torch.Tensor, "{LEN}"]):
    return {READ}

if __name__ == "__main__":
    logits = torch.randn(4, 7)
    {INDEX} = torch.tensor([1, 1, 2, 1])
    out = target_logits(logits, {INDEX})
    expected = torch.stack([logits[i, {INDEX}[i]] for i in range(4)])
"""


@pytest.mark.parametrize("read", ["logits[0][{i}]", "logits[0, {i}]"])
@pytest.mark.parametrize("index", ["target_idx", "labels", "class_idx"])
def test_a_fixed_row_read_at_one_pick_per_row(read, index, torch):
    code = ONE_ROW.format(INDEX=index, LEN="batch", READ=read.format(i=index))
    assert codes(code) == ["GL017"]
    scope = {"__name__": "__main__"}
    exec(code, scope)
    assert not torch.equal(scope["out"], scope["expected"])  # every pick from row 0


@pytest.mark.parametrize("length, read", [
    ("k", "logits[0][target_idx]"),  # as many picks as it likes from the first row: not one per row
    ("batch", "logits[torch.arange(logits.size(0)), target_idx]"),
    ("batch", "logits[:, 0][target_idx]"),  # a column, then rows by id: another question
])
def test_picks_not_tied_to_rows_or_made_per_row_stay_silent(length, read):
    function = ONE_ROW.split("if __name__")[0]  # the function alone: its annotations are the facts
    assert codes(function.format(INDEX="target_idx", LEN=length, READ=read)) == []


ONE_HOT_WRITE = """
import torch

def one_hot(indices, num_classes):
    out = torch.zeros(indices.numel(), num_classes)
    {WRITE}
    return out

if __name__ == "__main__":
    actions = torch.tensor([1, 4, 4, 7])
    out = one_hot(actions, 9)
    per_row = out.sum(1).tolist()
"""


def test_a_one_hot_written_by_columns_sets_every_pick_in_every_row(torch):
    code = ONE_HOT_WRITE.format(WRITE="out[:, indices.view(-1)] = 1.0")
    assert codes(code) == ["GL017"]
    scope = {"__name__": "__main__"}
    exec(code, scope)
    assert scope["per_row"] == [3.0, 3.0, 3.0, 3.0]  # three distinct picks set in every row, not one


@pytest.mark.parametrize("write", [
    "out[torch.arange(indices.numel()), indices.view(-1)] = 1.0",
    "out.scatter_(1, indices.view(-1, 1), 1.0)",
])
def test_one_entry_per_row_writes_stay_silent(write, torch):
    code = ONE_HOT_WRITE.format(WRITE=write)
    assert codes(code) == []
    scope = {"__name__": "__main__"}
    exec(code, scope)
    assert scope["per_row"] == [1.0, 1.0, 1.0, 1.0]


def test_a_column_list_shared_by_every_row_stays_silent():
    code = '''
import torch
def mark(out, keep):
    # out: [N, C], keep: [K] columns kept for every row
    out[:, keep] = 1
    return out
'''
    assert codes(code) == []


@pytest.mark.parametrize("rows", ["torch.arange(q.shape[0])", "range(q.shape[0])", "list(range(q.shape[0]))"])
def test_row_numbers_spelled_any_way_meet_a_kept_column(rows, torch):
    # a Python range or list of row numbers is converted by torch as `torch.arange` is: the same [B, B] grid
    code = f"""
    import torch
    def pick(q, scores):
        # q: [B, A]  scores: [B, A]
        a = scores.argmax(1, keepdim=True)
        return q[{rows}, a], q.gather(1, a)
    """
    assert codes(code) == ["GL017"]
    q, a = torch.randn(4, 3), torch.randint(3, (4, 1))
    assert eval(f"q[{rows}, a]").shape == (4, 4)
    assert eval(f"q[{rows}, a.squeeze(1)]").shape == (4,)
