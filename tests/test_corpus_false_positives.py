"""False positives seen on real code outside the bundled corpora, each as a small program in the
same form: torch runs it and its loop reference agrees, and the linter stays silent. Beside each, the
buggy form the rule is for, still reported and shown wrong in torch."""
import textwrap

import numpy as np
import pytest

from .conftest import codes
from .snippets import run_snippet

# A sparse-matrix test counts entries one (row, col) pair per statement: scalar picks never repeat
# within one write, and the loop adds them in turn.
COUNT_ONE_PAIR_PER_STATEMENT = """
import torch

def coalesce_counts(row, col, num_rows, num_cols):
    M = torch.zeros(num_rows, num_cols)
    for i in range(20):
        M[row[i], col[i]] += 1
    return M

if __name__ == "__main__":
    row = torch.randint(0, 5, (20,))
    col = torch.randint(0, 4, (20,))
    counts = coalesce_counts(row, col, 5, 4)
    ref = torch.zeros(5, 4)
    for r, c in zip(row.tolist(), col.tolist()):
        ref[r, c] += 1
    assert torch.equal(counts, ref)
"""

COUNT_ALL_PAIRS_AT_ONCE = """
import torch

def coalesce_counts(row, col, num_rows, num_cols):
    M = torch.zeros(num_rows, num_cols)
    M[row, col] += 1
    return M

if __name__ == "__main__":
    row = torch.randint(0, 2, (20,))
    col = torch.randint(0, 2, (20,))
    counts = coalesce_counts(row, col, 2, 2)
"""

# A pipeline unpacks packed latents into their (h, w) grid: the flattened coordinates of the tokens
# are distinct, whatever the `_ids` in their names suggests.
UNPACK_BY_GRID_COORDINATES = """
import torch

def unpack_latents_with_ids(x, x_ids):
    out_list = []
    for data, pos in zip(x, x_ids):
        _, ch = data.shape
        h_ids = pos[:, 1].to(torch.int64)
        w_ids = pos[:, 2].to(torch.int64)
        h = torch.max(h_ids) + 1
        w = torch.max(w_ids) + 1
        flat_ids = h_ids * w + w_ids
        out = torch.zeros((h * w, ch), dtype=data.dtype)
        out.scatter_(0, flat_ids.unsqueeze(1).expand(-1, ch), data)
        out_list.append(out.view(h, w, ch).permute(2, 0, 1))
    return torch.stack(out_list, dim=0)

if __name__ == "__main__":
    B, H, W, C = 2, 3, 4, 5
    hh, ww = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    coords = torch.stack([torch.zeros(H * W), hh.flatten(), ww.flatten(), torch.zeros(H * W)], dim=-1)
    perm = torch.randperm(H * W)
    x = torch.randn(B, H * W, C)
    x_ids = coords[perm].unsqueeze(0).expand(B, -1, -1)
    got = unpack_latents_with_ids(x[:, perm], x_ids)
    ref = torch.zeros(B, C, H, W)
    for b in range(B):
        for t in range(H * W):
            ref[b, :, t // W, t % W] = x[b, t]
    assert torch.equal(got, ref)
"""


def test_one_pair_per_statement_is_silent(torch):
    run_snippet(COUNT_ONE_PAIR_PER_STATEMENT)
    assert codes(COUNT_ONE_PAIR_PER_STATEMENT) == []


def test_all_pairs_at_once_still_reported(torch):
    # 20 pairs on a 2 x 2 grid must repeat; indexed += counts each distinct pair once
    counts = run_snippet(COUNT_ALL_PAIRS_AT_ONCE)["counts"]
    assert counts.sum().item() <= 4 < 20
    assert codes(COUNT_ALL_PAIRS_AT_ONCE) == ["GL013"]


def test_grid_coordinates_named_ids_are_silent(torch):
    run_snippet(UNPACK_BY_GRID_COORDINATES)
    assert codes(UNPACK_BY_GRID_COORDINATES) == []


def test_data_ids_with_a_prefix_still_repeat():
    # `src_ids` are token ids of a source sentence: the name still says they can repeat
    code = """
import torch

def copy_scores(copy, src_ids):
    # copy: [B, L]  src_ids: [B, L]
    out = torch.zeros(copy.size(0), 50)
    return out.scatter(1, src_ids, copy)
"""
    assert codes(code) == ["GL013"]


# An optimizer test runs one training step for several embedding widths, 1 among them: the single
# class is the caller's size, and with all-zero labels torch computes a loss of 0 without raising.
ONE_CLASS_ONLY_FOR_ONE_CALLER = """
import torch
import torch.nn.functional as F

def sparse_step(emb_dim):
    emb = torch.nn.Embedding(10, emb_dim)
    idx = torch.randint(0, 10, size=(4,))
    labels = torch.zeros((4,)).long()
    loss = F.cross_entropy(emb(idx), labels)
    loss.backward()
    return loss

if __name__ == "__main__":
    assert sparse_step(1).item() == 0.0
    assert sparse_step(4).item() > 0.0
    sparse_step(101)
"""

ONE_CLASS_IN_THE_CODE = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Scorer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.head = nn.Linear(d, 1)

    def forward(self, x, labels):
        return F.cross_entropy(self.head(x), labels)

if __name__ == "__main__":
    scorer = Scorer(8)
    loss = scorer(torch.randn(4, 8), torch.zeros(4, dtype=torch.long))
"""


def test_one_class_from_one_callers_size_is_silent(torch):
    run_snippet(ONE_CLASS_ONLY_FOR_ONE_CALLER)
    assert codes(ONE_CLASS_ONLY_FOR_ONE_CALLER) == []


def test_one_class_built_into_the_model_still_reported(torch):
    assert run_snippet(ONE_CLASS_IN_THE_CODE)["loss"].item() == 0.0  # nothing is ever learnt
    assert codes(ONE_CLASS_IN_THE_CODE) == ["GL011"]


# A segmentation script turns a float label map into one-hot planes through the legacy `.type()`:
# `torch.LongTensor`, its string and `torch.long` all give int64 indices.
ONE_HOT_THROUGH_LEGACY_TYPE = """
import torch

def to_one_hot(y_tensor, n_dims):
    _, h, w = y_tensor.size()
    y_tensor = y_tensor.type(torch.LongTensor).view(-1, 1)
    y_one_hot = torch.zeros(y_tensor.size()[0], n_dims).scatter_(1, y_tensor, 1)
    return y_one_hot.view(h, w, n_dims)

def to_one_hot_by_name(labels, classes):
    flat = labels.type("torch.LongTensor").reshape(-1, 1)
    return torch.zeros(flat.shape[0], classes).scatter_(1, flat, 1.0)

if __name__ == "__main__":
    seg = torch.randint(0, 3, (1, 4, 5)).float()
    got = to_one_hot(seg, 3)
    ref = torch.zeros(4, 5, 3)
    for i in range(4):
        for j in range(5):
            ref[i, j, int(seg[0, i, j])] = 1
    assert torch.equal(got, ref)
    assert torch.equal(to_one_hot_by_name(seg, 3), ref.view(-1, 3))
"""

ONE_HOT_THROUGH_FLOAT_TYPE = """
import torch

def to_one_hot(y_tensor, n_dims):
    y_tensor = y_tensor.type(torch.FloatTensor).view(-1, 1)
    return torch.zeros(y_tensor.size()[0], n_dims).scatter_(1, y_tensor, 1)

if __name__ == "__main__":
    to_one_hot(torch.randint(0, 3, (1, 4, 5)), 3)
"""


def test_legacy_long_type_gives_int64_indices(torch):
    run_snippet(ONE_HOT_THROUGH_LEGACY_TYPE)
    assert codes(ONE_HOT_THROUGH_LEGACY_TYPE) == []


def test_legacy_float_type_still_reported(torch):
    import pytest
    with pytest.raises(RuntimeError, match="int32/int64"):
        run_snippet(ONE_HOT_THROUGH_FLOAT_TYPE)
    assert codes(ONE_HOT_THROUGH_FLOAT_TYPE) == ["GL008"]


# A dataset keeps a split table with a padding row `[-1, 0]` in front and looks items up one row past
# their split: the key never reaches row 0, so no -1 comes out of the table.
TABLE_READ_PAST_ITS_PADDING_ROW = """
import torch

class Splits:
    def __init__(self, lengths):
        table = torch.tensor([[i, n] for i, n in enumerate(lengths)])
        table[:, 1] = table[:, 1].cumsum(0)
        self.table = torch.cat([torch.tensor([[-1, 0]]), table], 0)

    def locate(self, item):
        hit = (item < self.table[1:, 1].unsqueeze(1)) & (item >= self.table[:-1, 1].unsqueeze(1))
        split, idx = hit.nonzero().unbind(-1)
        split = self.table[split + 1, 0]
        return item - self.table[split, 1]

if __name__ == "__main__":
    items = torch.tensor([0, 2, 3, 6, 7, 11])
    got = Splits([3, 4, 5]).locate(items)
    starts = [0, 3, 7]
    ref = [i - max(s for s in starts if s <= i) for i in items.tolist()]
    assert got.tolist() == ref
"""

PADDING_PUT_INTO_THE_KEY = """
import torch

class Splits:
    def __init__(self, lengths):
        self.starts = torch.tensor(lengths).cumsum(0) - torch.tensor(lengths)

    def locate(self, item, split):
        split = torch.where(item >= 0, split, -1)
        return item - self.starts[split]

if __name__ == "__main__":
    got = Splits([3, 4, 5]).locate(torch.tensor([4, -1]), torch.tensor([1, 0]))
"""


def test_lookup_past_a_padding_row_is_silent(torch):
    run_snippet(TABLE_READ_PAST_ITS_PADDING_ROW)
    assert codes(TABLE_READ_PAST_ITS_PADDING_ROW) == []


def test_padding_put_into_the_key_still_reported(torch):
    got = run_snippet(PADDING_PUT_INTO_THE_KEY)["got"]
    assert got.tolist() == [1, -8]  # the missing item silently reads the last split's start
    assert codes(PADDING_PUT_INTO_THE_KEY) == ["GL010"]


# The unpadding Function copied across attention libraries: its index holds the positions of the
# real tokens (`nonzero` of the mask), each once, so scattering the gradient back loses nothing.
UNPAD_FIRST_AXIS = """
import torch
import torch.nn.functional as F

class IndexFirstAxis(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, indices):
        ctx.save_for_backward(indices)
        ctx.first_axis_dim, other_shape = input.shape[0], input.shape[1:]
        second_dim = other_shape.numel()
        flat = input.reshape(input.shape[0], -1)
        return torch.gather(flat, 0, indices.unsqueeze(-1).expand(-1, second_dim)).reshape(-1, *other_shape)

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        other_shape = grad_output.shape[1:]
        grad_output = grad_output.reshape(grad_output.shape[0], -1)
        grad_input = torch.zeros([ctx.first_axis_dim, grad_output.shape[1]], dtype=grad_output.dtype)
        grad_input.scatter_(0, indices.unsqueeze(-1).expand(-1, grad_output.shape[1]), grad_output)
        return grad_input.reshape(ctx.first_axis_dim, *other_shape), None

index_first_axis = IndexFirstAxis.apply

def unpad_input(hidden_states, attention_mask):
    indices = torch.nonzero(attention_mask.flatten(), as_tuple=False).flatten()
    return index_first_axis(hidden_states.reshape(-1, *hidden_states.shape[2:]), indices), indices

if __name__ == "__main__":
    hidden = torch.randn(2, 4, 3, requires_grad=True)
    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 0]])
    packed, indices = unpad_input(hidden, mask)
    upstream = torch.randn_like(packed)
    packed.backward(upstream)
    ref = torch.zeros(8, 3)
    for row, position in enumerate(indices.tolist()):
        ref[position] += upstream[row]
    assert torch.equal(hidden.grad.reshape(8, 3), ref)
"""


def test_unpadding_function_backward_is_silent(torch):
    run_snippet(UNPAD_FIRST_AXIS)
    assert codes(UNPAD_FIRST_AXIS) == []


def test_a_shape_offered_with_an_alternative_is_no_fact():
    # "(batch, seq, vocab) or (batch, vocab)": a caller passing a flat [N, V] is within the docstring
    code = '''
import torch

def logprobs_of(logits, labels):
    """
    Args:
        logits: Model output logits of shape (batch_size, seq_len, vocab_size)
            or (batch_size, vocab_size).
        labels (`torch.LongTensor` of shape `(batch_size, seq_len)` or `(batch_size,)`): targets.
    """
    return torch.gather(logits, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)

def flat_logprobs(logits_rmpad, ids_rmpad):
    # logits_rmpad: [total_nnz, vocab_size]  ids_rmpad: [total_nnz]
    return logprobs_of(logits_rmpad, ids_rmpad)
'''
    assert codes(code) == []


def test_a_single_docstring_shape_is_still_a_fact():
    code = '''
import torch

def logprobs_of(logits, labels):
    """
    Args:
        logits: Model output logits of shape (batch_size, seq_len, vocab_size).
        labels (`torch.LongTensor` of shape `(batch_size,)`): one target per sequence.
    """
    return torch.gather(logits, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
'''
    assert codes(code) == ["GL001"]


# torch_geometric.utils.get_self_loop_attr: one attribute per self-loop node, written by node id. Only the
# edge list's name says node ids repeat; a pair write of a dense adjacency still repeats on multi-edges.
SELF_LOOP_ATTR = """
import torch

def get_self_loop_attr(edge_index, edge_attr, num_nodes):
    loop_mask = edge_index[0] == edge_index[1]
    loop_index = edge_index[0][loop_mask]
    loop_attr = edge_attr[loop_mask]
    full_loop_attr = loop_attr.new_zeros((num_nodes, ) + loop_attr.size()[1:])
    full_loop_attr[loop_index] = loop_attr
    return full_loop_attr

if __name__ == "__main__":
    edge_index = torch.tensor([[0, 1, 0, 2], [1, 0, 0, 2]])
    weight = torch.tensor([0.2, 0.3, 0.5, 0.7])
    assert torch.allclose(get_self_loop_attr(edge_index, weight, 4), torch.tensor([0.5, 0.0, 0.7, 0.0]))
"""

DENSE_MULTI_EDGES = """
import torch

def to_dense(edge_index, edge_weight, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes)
    adj[edge_index[0], edge_index[1]] = edge_weight
    return adj

if __name__ == "__main__":
    edge_index = torch.tensor([[0, 0, 1], [1, 1, 2]])
    weight = torch.tensor([1.0, 2.0, 4.0])
    adj = to_dense(edge_index, weight, 3)
    assert adj[0, 1].item() != 3.0  # the two edges 0 -> 1 are not summed
"""


def test_self_loop_attributes_written_by_node_id_are_silent(torch):
    assert codes(SELF_LOOP_ATTR) == []
    run_snippet(SELF_LOOP_ATTR)


def test_dense_adjacency_of_multi_edges_is_still_reported(torch):
    assert codes(DENSE_MULTI_EDGES) == ["GL013"]
    run_snippet(DENSE_MULTI_EDGES)


# A reference implementation's self-test builds cases of 2 blocks and, by default, of 64: the cache helper runs
# under both, its block count a name (`nb`) whose size differs. One run's result must not serve the other.
TWO_CASE_SIZES = """
import torch

def pack(kv):
    nb, bs, d = kv.shape
    return kv.new_zeros(nb, bs, d) + kv

def unpack(packed):
    nb, bs, d = packed.shape
    return packed.new_zeros(nb, bs, d) + packed

def reference(kv, indices):
    restored = unpack(pack(kv))
    nb, bs, d = restored.shape
    flat = restored.view(nb * bs, d)
    return flat.index_select(0, indices.view(-1))

def make_case(num_blocks=64, block=4, topk=3):
    kv = torch.randn(num_blocks, block, 8)
    indices = torch.randint(0, num_blocks * block, (2, topk))
    return reference(kv, indices)

def self_test():
    small = make_case(num_blocks=2)
    big = make_case()
    return small, big

if __name__ == "__main__":
    small, big = self_test()
"""


def test_a_helper_run_under_two_sizes_of_one_name_is_two_runs(torch):
    scope = run_snippet(TWO_CASE_SIZES)
    assert scope["small"].shape == (6, 8) and scope["big"].shape == (6, 8)
    assert codes(TWO_CASE_SIZES) == []


# An attack compares predictions with labels; its scores are built from a Python list by torch.Tensor, a
# float tensor whose rank the analysis does not know, and the 2-d branch is never taken for them.
UNKNOWN_RANK_BRANCH = """
import torch

def compare(output, labels, kappa=0.5):
    if len(output.shape) >= 2:
        output = output.clone()
        output[:, labels] -= kappa
        output = torch.argmax(output, 1)
    return output != labels

def adjust(labels, batch_size):
    best = torch.Tensor([-1] * batch_size)
    return compare(best, labels)

if __name__ == "__main__":
    flags = adjust(torch.tensor([1, 0, 1]), 3)
"""


def test_a_column_write_by_labels_into_a_tensor_of_unknown_rank_is_silent(torch):
    assert run_snippet(UNKNOWN_RANK_BRANCH)["flags"].tolist() == [True, True, True]
    assert codes(UNKNOWN_RANK_BRANCH) == []


def test_runs_memoised_apart_when_a_named_size_differs():
    # Sym equality is by name: the memo key also holds the sizes behind the names
    from gather_lint.dims import Shape, Sym
    from gather_lint.static.calls import _sizes
    from gather_lint.static.values import TensorVal

    small = (("kv", TensorVal(Shape((Sym("nb", size=2), 584)))),)
    big = (("kv", TensorVal(Shape((Sym("nb", size=64), 584)))),)
    assert small == big  # the facts alone cannot tell the two runs apart
    assert _sizes(small) != _sizes(big)


NUMPY_DOT = '''
import numpy as np


class StructureAttack:
    def struct_score(self, a_hat_uv, XW):
        """
        a_hat_uv: sparse matrix, shape [P, N]
        XW: matrix, shape [N, K]
        """
        logits = a_hat_uv.dot(XW)
        label_onehot = np.eye(XW.shape[1])[self.label_u]
        best_wrong = (logits - 1000 * label_onehot).max(1)
        return logits[:, self.label_u] - best_wrong

    def attack(self, labels, target, a_hat, features, weight):
        self.label_u = labels[target]
        return self.struct_score(a_hat, features @ weight)


def first_class_scores(a_hat_uv, XW):
    """
    a_hat_uv: sparse matrix, shape [P, N]
    XW: matrix, shape [N, K]
    """
    return a_hat_uv.dot(XW)[:, 0]


if __name__ == "__main__":
    first_class_scores(np.ones((4, 3)), np.ones((3, 5)))
'''


def test_a_dot_of_matrices_is_no_vector_dot_product():
    """deeprobust's nettack: `a.dot(b)` of two matrices (NumPy or SciPy) is their product; torch.dot takes
    vectors only. The 0-d result it was given made `logits[:, label]` a GL001."""
    assert codes(NUMPY_DOT) == []
    scope = {}
    exec(NUMPY_DOT, scope)  # noqa: S102 - the code under test
    scores = scope["StructureAttack"]().attack(np.array([1, 2]), 0, np.ones((4, 3)), np.ones((3, 5)), np.ones((5, 3)))
    assert scores.shape == (4,)
    assert scope["first_class_scores"](np.ones((4, 3)), np.ones((3, 5))).shape == (4,)


# llama-moe counts how many experts picked each neuron: each expert's picks are a prefix of one sort
# permutation, distinct within one write; the overlap across experts is added loop by loop.
EXPERT_OVERLAP = """
import torch

def count_shared_neurons(score_list, expert_size):
    neuron_num = score_list[0].size(0)
    sorted_index_list = [PICKS for scores in score_list]
    moe_labels = [indices[:expert_size] for indices in sorted_index_list]  # one list per expert

    selected_count = torch.zeros((neuron_num,), dtype=torch.int)
    for selected_indices in moe_labels:
        selected_indices = torch.tensor(selected_indices)
        selected_count[selected_indices] += 1
    return selected_count

if __name__ == "__main__":
    scores = [torch.rand(50) for _ in range(6)]
    counts = count_shared_neurons(scores, 7)
    ref = torch.zeros(50, dtype=torch.int)
    for s in scores:
        for i in s.sort(0, descending=True)[1][:7].tolist():
            ref[i] += 1
    assert torch.equal(counts, ref), (counts, ref)
"""


@pytest.mark.parametrize("picks", [
    "scores.sort(0, descending=True)[1].tolist()",
    "torch.argsort(scores, descending=True).tolist()",
    "list(scores.sort(descending=True).indices)",
])
def test_prefixes_of_a_sort_permutation_do_not_repeat(picks):
    code = EXPERT_OVERLAP.replace("PICKS", picks)
    assert codes(code) == []
    run_snippet(code)  # the loop reference agrees: no write was lost


def test_picks_that_can_repeat_in_the_same_loop_are_still_reported(torch):
    code = EXPERT_OVERLAP.replace("PICKS", "scores.round().long().tolist()").split("if __name__")[0]
    assert codes(code) == ["GL013"]
    counts = torch.zeros(3, dtype=torch.int)
    counts[torch.tensor([1, 1])] += 1
    assert counts[1].item() == 1  # a repeated pick counted once


# The package's own form: the sort positions come back from a method as lists, and each expert's are
# picked by its number from a comprehension over range().
EXPERT_OVERLAP_THROUGH_A_METHOD = """
import torch

class LayerSplit:
    def __init__(self, score_list):
        self.score_list = score_list
        self.neuron_num = score_list[0].size(0)

    def sort_by_criterion(self):
        sorted_index_list = []
        for scores in self.score_list:
            sorted_scores, sorted_indices = scores.sort(0, descending=True)
            sorted_index_list.append(sorted_indices.tolist())
        return sorted_index_list

    def split(self, expert_num, expert_size):
        LISTS = self.sort_by_criterion()
        moe_labels = [LISTS[i][:expert_size] for i in range(expert_num)]
        selected_count = torch.zeros((self.neuron_num,), dtype=torch.int)
        for selected_indices in moe_labels:
            selected_indices = torch.tensor(selected_indices)
            selected_count[selected_indices] += 1
        return selected_count

if __name__ == "__main__":
    split = LayerSplit([torch.rand(40) for _ in range(5)])
    counts = split.split(5, 6)
    ref = torch.zeros(40, dtype=torch.int)
    for s in split.score_list:
        for i in s.sort(0, descending=True)[1][:6].tolist():
            ref[i] += 1
    assert torch.equal(counts, ref)
"""


@pytest.mark.parametrize("lists", ["sorted_index_list", "order_lists", "perm"])
def test_positions_named_as_an_ordering_and_picked_per_expert_do_not_repeat(lists):
    code = EXPERT_OVERLAP_THROUGH_A_METHOD.replace("LISTS", lists)
    assert codes(code) == []
    run_snippet(code)


def test_a_list_of_labels_picked_per_expert_is_still_reported():
    code = EXPERT_OVERLAP_THROUGH_A_METHOD.replace("LISTS", "label_lists").split("if __name__")[0]
    assert codes(code) == ["GL013"]


# dagua's animation keeps the deepest cluster of each node: `maximum` of the read and one depth for every entry
# gives a repeated node the same value from every copy, and taking it twice is taking it once.
CLUSTER_DEPTH = """
import torch

def cluster_depth_bonus(num_nodes, clusters, depths):
    bonus = torch.zeros(num_nodes, dtype=torch.float32)
    for name, members in clusters.items():
        member_ids = list(members)
        if member_ids:
            idx = torch.tensor(member_ids, dtype=torch.long)
            bonus[idx] = UPDATE
    return bonus

if __name__ == "__main__":
    clusters = {"a": [0, 1, 2, 2], "b": [2, 3, 3]}
    depths = {"a": 1.0, "b": 2.0}
    bonus = cluster_depth_bonus(6, clusters, depths)
    ref = torch.zeros(6)
    for name, members in clusters.items():
        for i in members:
            ref[i] = REFERENCE
    assert torch.equal(bonus, ref), (bonus, ref)
"""


@pytest.mark.parametrize("update, reference", [
    ("torch.maximum(bonus[idx], torch.full_like(bonus[idx], float(depths[name])))", "max(ref[i], depths[name])"),
    ("bonus[idx].clamp(min=float(depths[name]))", "max(ref[i], depths[name])"),
    ("torch.minimum(bonus[idx], torch.tensor(-float(depths[name])))", "min(ref[i], -depths[name])"),
])
def test_an_idempotent_update_by_a_repeated_index_loses_nothing(update, reference):
    code = CLUSTER_DEPTH.replace("UPDATE", update).replace("REFERENCE", reference)
    assert codes(code) == []
    run_snippet(code)  # the ids repeat (2 and 3), and the loop reference agrees


def test_an_update_that_adds_or_takes_per_entry_values_is_still_reported(torch):
    for update in ("bonus[idx] + depths[name]", "torch.maximum(bonus[idx], torch.rand(len(member_ids)))"):
        assert codes(CLUSTER_DEPTH.replace("UPDATE", update).split("if __name__")[0]) == ["GL013"], update
    bonus = torch.zeros(3)
    idx = torch.tensor([1, 1])
    bonus[idx] = bonus[idx] + 1.0
    assert bonus[1].item() == 1.0  # added once, not twice


def test_ids_made_distinct_by_a_set_are_silent():
    code = CLUSTER_DEPTH.replace("list(members)", "sorted(set(members))").replace("UPDATE", "bonus[idx] + depths[name]")
    assert codes(code) == []
    run_snippet(code.replace("for i in members:", "for i in set(members):").replace("REFERENCE", "ref[i] + depths[name]"))


# dagua's force-directed layout builds a dense adjacency from an edge list: a pair repeats only in a multigraph,
# and only the list's name speaks of it; its coarsening hands over one edge per pair.
DENSE_FROM_EDGE_LIST = """
import torch

def dense_adjacency(edge_index, num_nodes, edge_weights):
    adjacency = torch.zeros((num_nodes, num_nodes), dtype=torch.float64)
    sources = edge_index[0]
    targets = edge_index[1]
    adjacency[sources, targets] = edge_weights.to(torch.float64)
    return adjacency

if __name__ == "__main__":
    edge_index = torch.tensor([[0, 1, 2], [1, 0, 3]])
    adj = dense_adjacency(edge_index, 4, torch.tensor([1.0, 2.0, 4.0]))
    assert adj.sum().item() == 7.0
"""


def test_a_dense_adjacency_from_a_named_edge_list_is_silent():
    assert codes(DENSE_FROM_EDGE_LIST) == []
    run_snippet(DENSE_FROM_EDGE_LIST)


def test_a_dense_adjacency_of_edge_lists_joined_without_coalescing_is_reported(torch):
    """Self-loops added to a graph that has one already: the joined list holds the edge (0, 0) twice."""
    code = DENSE_FROM_EDGE_LIST.replace(
        "    edge_index = torch.tensor([[0, 1, 2], [1, 0, 3]])\n"
        "    adj = dense_adjacency(edge_index, 4, torch.tensor([1.0, 2.0, 4.0]))\n"
        "    assert adj.sum().item() == 7.0\n",
        "    edge_index = torch.tensor([[0, 0, 1], [0, 1, 2]])\n"
        "    loops = torch.arange(4).repeat(2, 1)\n"
        "    joined = torch.cat([edge_index, loops], dim=1)\n"
        "    adj = dense_adjacency(joined, 4, torch.ones(joined.shape[1]))\n"
        "    assert adj.sum().item() == 6.0  # 7 edges of weight 1, one of them written over by its twin\n")
    assert "loops" in code
    assert codes(code) == ["GL013"]
    run_snippet(code)


# mace's dipole model keeps a shape comment from the energy-only model above the readout: `# [n_nodes, ]` on a
# squeeze(-1) that squeezes nothing, since the readout gives 4 columns; the next two statements read column 0
# and columns 1:, and the model runs.
STALE_COMMENT_ABOVE_TWO_READS = """
import torch

def energies_and_dipoles(readout, node_feats, batch, num_graphs):
    node_out = readout(node_feats).squeeze(-1)  # [n_nodes, ]
    node_energies = node_out[:, 0]
    energy = torch.zeros(num_graphs).index_add(0, batch, node_energies)
    node_dipoles = node_out[:, 1:]
    return energy, node_dipoles

if __name__ == "__main__":
    readout = torch.nn.Linear(8, 4)
    energy, dipoles = energies_and_dipoles(readout, torch.randn(5, 8), torch.tensor([0, 0, 1, 1, 1]), 2)
    assert energy.shape == (2,) and dipoles.shape == (5, 3)
"""


def test_a_shape_comment_two_reads_index_past_is_stale_and_silent():
    assert codes(STALE_COMMENT_ABOVE_TWO_READS) == []
    run_snippet(STALE_COMMENT_ABOVE_TWO_READS)


def test_a_shape_comment_one_read_indexes_past_is_still_reported(torch):
    code = STALE_COMMENT_ABOVE_TWO_READS.replace("    node_dipoles = node_out[:, 1:]\n", "    node_dipoles = node_feats\n") \
        .replace("torch.nn.Linear(8, 4)", "torch.nn.Linear(8, 1)").replace(" and dipoles.shape == (5, 3)", "")
    assert codes(code) == ["GL001"]
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(code)


# icefall's SURT recipes document the mask encoder's output as "a tensor of shape (B, T, C)"; it is a list of one
# [B, T, C] tensor per channel, and `B, T, D = x_masked[0].shape` says so: an unpacking that gives the rank the code
# runs with refutes the docstring's shape (six false GL001 in the thirty-ninth precision set).
HEAT_LOSS = '''
import torch
from lhotse.utils import LOG_EPSILON


def compute_heat_loss(x_masked, batch, num_channels=2):
    """
    Compute HEAT loss for separated sources using the output of mask encoder.
    Args:
      x_masked:
        The output of mask encoder. It is a tensor of shape (B, T, C).
      batch:
        A batch of data.
    """
    B, T, D = x_masked[0].shape
    targets = []
    for i in range(num_channels):
        target = torch.ones_like(x_masked[i]) * LOG_EPSILON
        targets.append(target)
    for b in range(B):
        last_seg_end = [0 for _ in range(num_channels)]
        for source_feat, (start, end) in zip(batch["source_feats"][b], batch["source_boundaries"][b]):
            end = min(end, T)
            source_feat = source_feat[: end - start, :]
            for i in range(num_channels):
                if start >= last_seg_end[i]:
                    targets[i][b, start:end, :] += source_feat
                    last_seg_end[i] = max(end, last_seg_end[i])
                    break
    return torch.stack(targets).sum()
'''


def test_a_shape_unpacking_refutes_a_documented_rank_and_is_silent(torch):
    assert codes(HEAT_LOSS) == []
    runnable = HEAT_LOSS.replace("from lhotse.utils import LOG_EPSILON", "LOG_EPSILON = -100.0")
    scope = run_snippet(runnable)
    x_masked = [torch.zeros(2, 5, 4), torch.zeros(2, 5, 4)]
    batch = {"source_feats": [[torch.ones(3, 4)], [torch.ones(2, 4)]], "source_boundaries": [[(0, 3)], [(1, 3)]]}
    assert scope["compute_heat_loss"](x_masked, batch).shape == ()


# A knowledge-graph model documents `sample` for one mode as [batch_size, 3]; the other modes pass a
# (positive, negative) pair, which the code unpacks: unpacking needs as many rows as names.
TWO_FORMS_OF_A_SAMPLE = '''
import torch

def score(table, sample, single=True):
    """
    sample: different format per mode.
        - single: tensor with shape [batch_size, 3]
        - otherwise: (positive_sample, negative_sample)
    """
    if single:
        return torch.index_select(table, 0, sample[:, 0])
    pos, neg = sample
    return torch.index_select(table, 0, pos[:, 1])
'''


def test_a_pair_unpacked_from_a_documented_tensor_refutes_its_shape(torch):
    assert codes(TWO_FORMS_OF_A_SAMPLE) == []
    score = run_snippet(TWO_FORMS_OF_A_SAMPLE)["score"]
    table, pos, neg = torch.randn(100, 4), torch.randint(0, 100, (8, 3)), torch.randint(0, 100, (8, 16))
    assert score(table, pos).shape == score(table, (pos, neg), single=False).shape == (8, 4)


# A label-smoothing loss built with the old flags: `reduce=False` is `reduction="none"`, one loss per entry.
LEGACY_UNREDUCED_LOSS = '''
import torch
import torch.nn as nn

class LabelSmoothing(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.criterion = nn.KLDivLoss(size_average=False, reduce=REDUCE)
        self.smoothing = smoothing

    def forward(self, input, target):
        true_dist = input.data.clone().fill_(self.smoothing / (input.size(1) - 1))
        true_dist.scatter_(1, target.unsqueeze(1), 1.0 - self.smoothing)
        return self.criterion(input, true_dist).sum(1)

if __name__ == "__main__":
    logp = torch.log_softmax(torch.randn(6, 10), -1)
    LabelSmoothing()(logp, torch.randint(0, 10, (6,)))
'''


@pytest.mark.parametrize("reduce", ["False", "True"])
def test_a_loss_module_built_with_the_old_flags_is_not_taken_for_a_mean(reduce, torch):
    # reduce=True sums to one number (a later .sum(1) raises), but which reduction the old flags choose is
    # left unknown: neither form is reported as a 0-d loss
    program = LEGACY_UNREDUCED_LOSS.replace("REDUCE", reduce)
    assert codes(program) == []
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loss = torch.nn.KLDivLoss(size_average=False, reduce=False)(torch.randn(6, 10), torch.rand(6, 10))
    assert loss.sum(1).shape == (6,)


# A captioning beam search keeps its scores on self; the step method rebinds them with the beam dim grown from 1.
BEAM_SCORES_REBOUND = '''
import torch


class Beam:
    def __init__(self, model, max_len: int, beam_size: int):
        self.model, self.max_len, self.beam_size = model, max_len, beam_size

    def apply(self, x, return_probs=False):
        self.b = x.size(0)
        self.score = torch.zeros((self.b, 1, 1))  # [b, 1, 1] before the first step only
        self.probs = []
        outputs = []
        for t in range(self.max_len):
            x, outputs = self.iter(t, x, outputs)
        _, order = torch.sort(self.score, 1, descending=True)  # [b, beam, 1]: iter() rebinds self.score
        outputs = torch.cat(outputs, -1)
        outputs = torch.gather(outputs, 1, order.expand(self.b, self.beam_size, self.max_len))
        if return_probs:
            probs = torch.cat(self.probs, 2)
            probs = torch.gather(probs, 1, order.unsqueeze(-1).expand(self.b, self.beam_size, self.max_len, probs.shape[-1]))
            return outputs, probs
        return outputs

    def iter(self, t, x, outputs):
        cur = 1 if t == 0 else self.beam_size
        logp = self.model(x).view(self.b, cur, -1)
        cand = self.score + logp
        val, idx = torch.sort(cand.view(self.b, -1), -1, descending=True)
        val, idx = val[:, :self.beam_size], idx[:, :self.beam_size]
        beam = idx // cand.shape[-1]
        self.score = val.unsqueeze(-1)
        self.probs = [torch.gather(p, 1, beam[..., None, None].expand(-1, -1, p.shape[2], p.shape[3])) for p in self.probs]
        self.probs.append(torch.gather(logp, 1, beam.unsqueeze(-1).expand(-1, -1, logp.shape[-1])).unsqueeze(2))
        outputs = [torch.gather(o, 1, beam.unsqueeze(-1)) for o in outputs]
        outputs.append((idx - beam * cand.shape[-1]).unsqueeze(-1))
        x = torch.gather(x.view(self.b, cur, -1), 1, beam.unsqueeze(-1).expand(-1, -1, x.shape[-1]))
        return x.view(self.b * self.beam_size, -1), outputs


class Toy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 50)

    def forward(self, x):
        return torch.log_softmax(self.lin(x), -1)


def run():
    torch.manual_seed(0)
    return Beam(Toy(), 5, 3).apply(torch.randn(2, 8), return_probs=True)


if __name__ == "__main__":
    run()
'''


def test_attributes_a_called_method_rebinds_are_not_the_callers_old_ones(torch):
    assert codes(BEAM_SCORES_REBOUND) == []
    out, probs = run_snippet(BEAM_SCORES_REBOUND)["run"]()
    assert out.shape == (2, 3, 5) and probs.shape == (2, 3, 5, 50)
    assert not torch.equal(out[0, 0], out[0, 1])  # torch: the beams differ along dim 1, which the sort order picks


def test_each_of_shape_describes_the_items_of_a_tuple(torch):
    # the items are [num_triples], not 0-d rows of one [num_triples] tensor: the index is a [num_triples, 1]
    # column (only column 0 written), not the 1-d index of a rank mismatch
    code = '''
    import torch
    def message(x, triples):
        """
        :param x: shape: (num_entities, 8)
        :param triples: each of shape: (num_triples,)
        """
        h, r, t = triples
        rows = x.index_select(0, h)
        return torch.zeros_like(x).scatter_add(0, t.unsqueeze(-1), rows)
    '''
    assert codes(code) == ["GL009"]
    ids = torch.tensor([0, 2, 1])
    out = run_snippet(textwrap.dedent(code))["message"](torch.ones(3, 8), (ids, ids, ids))
    assert out[:, 0].tolist() == [1.0, 1.0, 1.0] and out[:, 1:].abs().sum() == 0  # torch: column 0 only



# A point-cloud collate offsets every labelled point's instance id: the one-argument np.where gives the
# positions of the labelled points, each once, whatever the `_ids` in the name says.
LABELLED_POSITIONS = '''
import numpy as np
import torch


def offset_labels(labels, offset):
    instance_label = torch.from_numpy(labels)
    invalid_ids = FOUND
    instance_label[invalid_ids] += offset
    return instance_label


if __name__ == "__main__":
    labels = np.array([3, -100, 0, 3, 1, -100, 1])
    out = offset_labels(labels.copy(), 10)
    expected = torch.tensor([l + 10 if l != -100 else l for l in labels.tolist()])
    assert torch.equal(out, expected)
'''


@pytest.mark.parametrize("found", ["np.where(instance_label != -100)", "np.nonzero(instance_label != -100)",
                                   "torch.where(instance_label != -100)",
                                   "(instance_label != -100).nonzero(as_tuple=True)"])
def test_positions_found_by_a_one_argument_where_are_silent(found, torch):
    program = LABELLED_POSITIONS.replace("FOUND", found)
    assert "GL013" not in codes(program)
    run_snippet(program)  # the positions are distinct: every labelled point gets the offset once


def test_ids_picked_by_a_three_argument_where_are_still_reported(torch):
    program = LABELLED_POSITIONS.replace("FOUND", "torch.where(instance_label != -100, instance_label, 0)")
    assert "GL013" in codes(program)
    with pytest.raises(AssertionError):
        run_snippet(program)  # instance ids as positions: repeated ids are offset once, the rest not at all


# A pillar scatter of one literal pillar [[batch, z, y, x]] = [[0, 0, 3, 7]]: the 0 written twice in the row is no
# repeat of the flat positions y * nx + x made from two of its columns.
ONE_PILLAR = '''
import torch


def scatter_pillars(features, coords, nx, ny):
    canvas = torch.zeros(features.shape[1], nx * ny)
    indices = coords[:, 2] * nx + coords[:, 3]
    canvas[:, indices] = features.t()
    return canvas.view(-1, ny, nx)


if __name__ == "__main__":
    torch.manual_seed(0)
    features = torch.randn(1, 4)
    coords = torch.tensor([[0, 0, 3, 7]])
    out = scatter_pillars(features, coords, 10, 8)
    assert torch.equal(out[:, 3, 7], features[0]) and int((out != 0).sum()) == int((features != 0).sum())
'''


def test_columns_of_a_literal_row_with_a_repeated_value_are_silent(torch):
    assert "GL013" not in codes(ONE_PILLAR)
    run_snippet(ONE_PILLAR)


# Last-token classification: the last non-padding position of each row, a key whose shape the analysis does not
# know, is no `None` (a new axis): `logits[arange(B), last]` is [B, C].
LAST_TOKEN_LOSS = '''
import torch


def calc_loss_batch(input_batch, target_batch, model):
    mask = input_batch != 50256
    last_token_pos = mask.sum(dim=1) - 1
    logits = model(input_batch)  # shape: [batch_size, seq_len, num_classes]
    selected_logits = logits[torch.arange(logits.size(0)), last_token_pos]
    return torch.nn.functional.cross_entropy(selected_logits, target_batch), selected_logits


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(50257, 2)
    ids = torch.tensor([[5, 7, 50256], [3, 4, 9]])
    loss, picked = calc_loss_batch(ids, torch.tensor([0, 1]), lambda x: table[x])
    assert picked.shape == (2, 2) and torch.equal(picked, torch.stack([table[7], table[9]]))
'''


def test_a_key_of_unknown_shape_is_no_new_axis(torch):
    assert codes(LAST_TOKEN_LOSS) == []
    run_snippet(LAST_TOKEN_LOSS)


# A beam step reads the logits as the first item of the model's output tuple; the shape comment on the call
# describes that item, as `outputs[0][:, -1, :]` shows.
OUTPUT_TUPLE_COMMENT = '''
import torch


def step(model, model_inputs):
    outputs = model(**model_inputs)  # (batch_size * num_beams, cur_len, vocab_size)
    next_token_logits = outputs[0][:, -1, :]  # (batch_size * num_beams, vocab_size)
    return torch.log_softmax(next_token_logits, dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(6, 5, 11)
    scores = step(lambda input_ids: (logits, None), {"input_ids": None})
    assert scores.shape == (6, 11)
'''


def test_a_comment_on_an_output_tuple_describes_its_first_item(torch):
    assert codes(OUTPUT_TUPLE_COMMENT) == []
    run_snippet(OUTPUT_TUPLE_COMMENT)


# torchtyping's `"bs":...` names any number of leading dims together: the area of [F, N, 2] points is [F, N].
NAMED_ELLIPSIS = '''
import torch


class TensorType:  # torchtyping's annotation, as far as this program needs it
    def __class_getitem__(cls, item):
        return cls


def area2(p: TensorType["bs":..., 2], v0: TensorType["bs":..., 2], v1: TensorType["bs":..., 2]) -> TensorType["bs":...]:
    return (p[..., 0] - v0[..., 0]) * (v1[..., 1] - v0[..., 1]) - (p[..., 1] - v0[..., 1]) * (v1[..., 0] - v0[..., 0])


def closest(p, v0, v1):
    w = area2(p, v0, v1).abs()
    d_values, d_indices = torch.min(w, dim=0, keepdim=True)
    return w[d_indices[0], torch.arange(p.shape[1])]


if __name__ == "__main__":
    torch.manual_seed(0)
    p, v0, v1 = torch.rand(3, 5, 2), torch.rand(3, 5, 2), torch.rand(3, 5, 2)
    assert closest(p, v0, v1).shape == (5,)
'''


def test_a_named_ellipsis_of_torchtyping_is_any_number_of_dims(torch):
    assert codes(NAMED_ELLIPSIS) == []
    run_snippet(NAMED_ELLIPSIS)
