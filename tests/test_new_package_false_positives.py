"""False positives from the first run on packages the project had not linted (benchmarks/README.md,
"Precision on packages never linted before"), each as a small program in the style of the package's
code: torch runs it as the package would, and the linter stays silent. Beside each, the mistake the
rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

# A serving engine renumbers the blocks of a block table in int32 (cumsum with dtype=torch.int32) and
# scatters the new ids into an int32 table: src and self have one dtype, and scatter_ runs.
RENUMBER_IN_INT32 = """
import torch

def renumber_blocks(block_table: torch.Tensor):
    block_ids = block_table.flatten().clamp(min=0).to(torch.int32)
    sorted_ids, permutation = torch.sort(block_ids)
    is_new = torch.cat((torch.ones(1, dtype=torch.bool), sorted_ids[1:] != sorted_ids[:-1]))
    compact_sorted = torch.cumsum(is_new, dim=0, dtype=torch.int32) - 1
    inverse = torch.empty_like(compact_sorted)
    inverse.scatter_(0, permutation, compact_sorted)
    table = torch.zeros(block_ids.numel(), dtype=torch.int32)
    table.scatter_(0, torch.arange(block_ids.numel()), compact_sorted)
    return inverse.view_as(block_table), table

if __name__ == "__main__":
    block_table = torch.tensor([[7, 3, 3], [9, 7, 0]], dtype=torch.int32)
    new_bt, table = renumber_blocks(block_table)
    ranks = {b: k for k, b in enumerate(sorted(set(block_table.flatten().tolist())))}
    assert new_bt.tolist() == [[ranks[b] for b in row] for row in block_table.tolist()]
    assert table.dtype == torch.int32
"""

# the same renumbering without the keyword: a bool cumsum is int64, and scatter_ into int32 raises
RENUMBER_IN_INT64 = """
import torch

def renumber_blocks(block_table: torch.Tensor):
    block_ids = block_table.flatten().clamp(min=0).to(torch.int32)
    sorted_ids, permutation = torch.sort(block_ids)
    is_new = torch.cat((torch.ones(1, dtype=torch.bool), sorted_ids[1:] != sorted_ids[:-1]))
    compact_sorted = torch.cumsum(is_new, dim=0) - 1
    table = torch.zeros(block_ids.numel(), dtype=torch.int32)
    table.scatter_(0, torch.arange(block_ids.numel()), compact_sorted)
    return table
"""

# Lengths summed with dtype=torch.int32 are int32, scattered into an int32 buffer.
LENGTHS_SUMMED_IN_INT32 = """
import torch

def lengths_by_slot(mask: torch.Tensor, slots: torch.Tensor, num_slots: int):
    lengths = mask.sum(dim=-1, dtype=torch.int32)
    out = torch.zeros(num_slots, dtype=torch.int32)
    out.scatter_(0, slots, lengths)
    return out

if __name__ == "__main__":
    mask = torch.tensor([[True, True, False], [True, False, False]])
    out = lengths_by_slot(mask, torch.tensor([2, 0]), 3)
    assert out.tolist() == [1, 0, 2]
"""


def test_cumsum_with_an_int32_dtype_is_int32(torch):
    run_snippet(RENUMBER_IN_INT32)
    assert codes(RENUMBER_IN_INT32) == []


def test_cumsum_without_a_dtype_is_still_int64(torch):
    scope = run_snippet(RENUMBER_IN_INT64)
    with pytest.raises(RuntimeError, match="dtype"):
        scope["renumber_blocks"](torch.tensor([[7, 3, 3], [9, 7, 0]], dtype=torch.int32))
    assert codes(RENUMBER_IN_INT64) == ["GL016"]


def test_sum_with_an_int32_dtype_is_int32(torch):
    run_snippet(LENGTHS_SUMMED_IN_INT32)
    assert codes(LENGTHS_SUMMED_IN_INT32) == []
    int64_sum = LENGTHS_SUMMED_IN_INT32.replace("mask.sum(dim=-1, dtype=torch.int32)", "mask.sum(dim=-1)")
    with pytest.raises(RuntimeError, match="dtype"):
        run_snippet(int64_sum)
    assert codes(int64_sum) == ["GL016"]


# A mesh generator samples the next code greedily (argmax, [B]) or from the softmax (multinomial, [B, 1])
# and appends it with einops' pack(..., 'b *'), which flattens whatever follows b: both paths append
# one column.
SAMPLE_PACKED = """
import torch
import torch.nn.functional as F
from einops import pack

def next_codes(codes, logits, temperature):
    if temperature == 0.:
        sample = logits.argmax(dim = -1)
    else:
        probs = F.softmax(logits / temperature, dim = -1)
        sample = torch.multinomial(probs, 1)
    codes, _ = pack([codes, sample], 'b *')
    return codes

if __name__ == "__main__":
    codes = torch.randint(0, 7, (3, 5))
    logits = torch.randn(3, 7)
    greedy = next_codes(codes, logits, 0.)
    sampled = next_codes(codes, logits, 1.)
    assert greedy.shape == sampled.shape == (3, 6)
    assert torch.equal(greedy[:, -1], logits.argmax(-1))
"""

SAMPLE_FLATTENED = """
import torch
import torch.nn.functional as F

def next_tokens(logits, temperature):
    if temperature == 0.:
        sample = logits.argmax(dim=-1)
    else:
        probs = F.softmax(logits / temperature, dim=-1)
        sample = torch.multinomial(probs, 1)
    return sample.view(-1)

if __name__ == "__main__":
    logits = torch.randn(3, 7)
    assert next_tokens(logits, 0.).shape == next_tokens(logits, 1.).shape == (3,)
"""

# the slip GL023 is for: the sample meets the codes as it is, and the greedy path's [B] cannot be
# concatenated to [B, N] along the last dim
SAMPLE_CONCATENATED = """
import torch
import torch.nn.functional as F

def next_codes(codes, logits, temperature):
    if temperature == 0.:
        sample = logits.argmax(dim=-1)
    else:
        probs = F.softmax(logits / temperature, dim=-1)
        sample = torch.multinomial(probs, 1)
    return torch.cat([codes, sample], dim=-1)
"""


def test_sample_packed_by_einops_is_silent(torch):
    pytest.importorskip("einops")
    run_snippet(SAMPLE_PACKED)


def test_sample_packed_by_einops_is_not_reported():
    assert codes(SAMPLE_PACKED) == []


def test_sample_flattened_is_silent(torch):
    run_snippet(SAMPLE_FLATTENED)
    assert codes(SAMPLE_FLATTENED) == []


def test_sample_concatenated_as_it_is_still_reported(torch):
    scope = run_snippet(SAMPLE_CONCATENATED)
    codes_in, logits = torch.randint(0, 7, (3, 5)), torch.randn(3, 7)
    assert scope["next_codes"](codes_in, logits, 1.).shape == (3, 6)
    with pytest.raises(RuntimeError):
        scope["next_codes"](codes_in, logits, 0.)
    assert codes(SAMPLE_CONCATENATED) == ["GL023"]


# A quantization test's module updates a buffer from __init__ in forward, at random rows: module state
# overwritten on every call, not a zeros buffer being filled, and nothing reads it as a sum.
BUFFER_UPDATED_IN_FORWARD = """
import torch

class ModelWithInplaceOp(torch.nn.Module):
    def __init__(self, DIM=128):
        super().__init__()
        self.lin = torch.nn.Linear(DIM, DIM)
        self.register_buffer("other", torch.zeros(DIM, DIM))

    def forward(self, x, idx):
        x = x + self.lin(x)
        self.other[idx] = x
        return x

if __name__ == "__main__":
    DIM = 16
    m = ModelWithInplaceOp(DIM)
    x = torch.randn(DIM, DIM)
    idx = torch.randint(0, DIM, (DIM,), dtype=torch.long)
    with torch.no_grad():
        out = m(x, idx)
        again = m(x, idx)
    assert torch.equal(out, again)
    # every row written holds one of the values written there: the state the test needs
    for r in set(idx.tolist()):
        assert any(torch.equal(m.other[r], out[j]) for j in (idx == r).nonzero().flatten().tolist())
"""

# the same write into a zeros buffer the forward makes for itself: a histogram of random rows, where a
# repeated row keeps one of its values
LOCAL_BUFFER_FILLED_IN_FORWARD = """
import torch

class RowHistogram(torch.nn.Module):
    def __init__(self, DIM=128):
        super().__init__()
        self.lin = torch.nn.Linear(DIM, DIM)

    def forward(self, x, idx):
        x = x + self.lin(x)
        other = torch.zeros(x.shape[0], x.shape[1])
        other[idx] = x
        return other

if __name__ == "__main__":
    DIM = 16
    m = RowHistogram(DIM)
    x = torch.randn(DIM, DIM)
    idx = torch.randint(0, DIM, (DIM,), dtype=torch.long)
    with torch.no_grad():
        out = m(x, idx)
"""

# a buffer that forward itself rebinds to zeros and then fills is being filled, attribute or not
ATTRIBUTE_BUFFER_REMADE_IN_FORWARD = LOCAL_BUFFER_FILLED_IN_FORWARD.replace(
    "other = torch.zeros(x.shape[0], x.shape[1])", "self.other = torch.zeros(x.shape[0], x.shape[1])"
).replace("other[idx] = x", "self.other[idx] = x").replace("return other", "return self.other")


def test_module_buffer_updated_in_forward_is_silent(torch):
    run_snippet(BUFFER_UPDATED_IN_FORWARD)
    assert codes(BUFFER_UPDATED_IN_FORWARD) == []


def test_zeros_buffer_filled_in_forward_is_still_reported(torch):
    torch.manual_seed(0)
    scope = run_snippet(LOCAL_BUFFER_FILLED_IN_FORWARD)
    idx, x, m = scope["idx"], scope["x"], scope["m"]
    assert idx.unique().numel() < idx.numel()  # randint rows repeat
    with torch.no_grad():
        summed = torch.zeros(16, 16).index_put_((idx,), x + m.lin(x), accumulate=True)
    assert not torch.allclose(scope["out"], summed)  # a repeated row kept one value, not their sum
    assert codes(LOCAL_BUFFER_FILLED_IN_FORWARD) == ["GL013"]
    assert codes(ATTRIBUTE_BUFFER_REMADE_IN_FORWARD) == ["GL013"]


# A kernel test's brute-force reference reads the top-k rows of each token, whose back half is padded
# with -1, at the positions a list keeps only where the entry is not -1: no -1 reaches index_select.
# Two loops of the test each build their own list.
ROWS_AT_KEPT_POSITIONS = """
import torch

def brute_force(table, num_tokens, topk, lengths):
    idx = torch.randint(0, table.shape[0], (num_tokens, topk))
    idx[:, topk // 2:] = -1
    sums = torch.zeros(num_tokens)
    for t in range(num_tokens):
        L = int(lengths[t].item())
        cols = idx[t]
        valid_cols = [k for k in range(topk) if k < L and int(cols[k].item()) >= 0]
        if not valid_cols:
            continue
        rows = table.index_select(0, cols[torch.tensor(valid_cols)].long())
        sums[t] = rows.sum()
    maxes = torch.zeros(num_tokens)
    for t in range(num_tokens):
        cols = idx[t]
        valid_cols = [k for k in range(topk) if cols[k] != -1]
        keep = torch.tensor(valid_cols)
        maxes[t] = table.index_select(0, cols[keep]).max()
    return idx, sums, maxes

if __name__ == "__main__":
    table = torch.randn(40, 3)
    lengths = torch.tensor([3, 8, 8, 1])
    idx, sums, maxes = brute_force(table, 4, 8, lengths)
    for t in range(4):
        kept = [int(c) for c in idx[t, :int(lengths[t])] if c >= 0]
        assert torch.allclose(sums[t], table[kept].sum())
"""

# the list keeps positions by their number only: a length past the unpadded half reaches a -1
ROWS_AT_COUNTED_POSITIONS = """
import torch

def brute_force(table, num_tokens, topk, lengths):
    idx = torch.randint(0, table.shape[0], (num_tokens, topk))
    idx[:, topk // 2:] = -1
    sums = torch.zeros(num_tokens)
    for t in range(num_tokens):
        L = int(lengths[t].item())
        cols = idx[t]
        valid_cols = [k for k in range(topk) if k < L]
        if not valid_cols:
            continue
        rows = table.index_select(0, cols[torch.tensor(valid_cols)].long())
        sums[t] = rows.sum()
    return sums
"""


def test_positions_kept_where_the_entry_is_not_padding_are_silent(torch):
    run_snippet(ROWS_AT_KEPT_POSITIONS)
    assert codes(ROWS_AT_KEPT_POSITIONS) == []


def test_positions_kept_by_number_only_are_still_reported(torch):
    scope = run_snippet(ROWS_AT_COUNTED_POSITIONS)
    scope["brute_force"](torch.randn(40, 3), 2, 8, torch.tensor([4, 2]))  # within the unpadded half
    with pytest.raises(IndexError, match="out of range"):
        scope["brute_force"](torch.randn(40, 3), 2, 8, torch.tensor([6, 2]))
    assert codes(ROWS_AT_COUNTED_POSITIONS) == ["GL011"]


# A dependency parser's Chu-Liu/Edmonds step contracts a cycle into one new node: -1 appended to the kept
# positions reads the last row and column as that node's slot, and the code writes the slot's column
# (s[:-1, -1]) and row (s[-1, :-1]) right after; the corner, where they meet, is a self-loop the
# diagonal already holds at MIN.
CONTRACT_CYCLE = """
import torch

MIN = -1e32

def contract(s, cycle):
    # s: [N, N] scores of dependent-head pairs
    s = s.clone()
    s.diagonal()[1:].fill_(MIN)
    noncycle = torch.ones(len(s)).index_fill_(0, cycle, 0)
    noncycle = torch.where(noncycle.gt(0))[0]
    s_dep = s[noncycle][:, cycle]
    deps = s_dep.argmax(1)
    s_head = s[cycle][:, noncycle]
    heads = s_head.argmax(0)
    contracted = torch.cat((noncycle, torch.tensor([-1])))
    s = s[contracted][:, contracted]
    s[:-1, -1] = s_dep[range(len(deps)), deps]
    s[-1, :-1] = s_head[heads, range(len(heads))]
    return s

if __name__ == "__main__":
    scores = torch.randn(6, 6)
    cycle = torch.tensor([2, 4])
    out = contract(scores, cycle)
    s = scores.clone()
    s.diagonal()[1:].fill_(MIN)
    kept = [0, 1, 3, 5]
    expected = torch.full((5, 5), MIN)
    expected[:4, :4] = s[kept][:, kept]
    expected[:4, 4] = s[kept][:, [2, 4]].max(1).values
    expected[4, :4] = s[[2, 4]][:, kept].max(0).values
    assert torch.equal(out, expected)
"""


def test_cycle_slot_written_but_its_corner_is_silent(torch):
    run_snippet(CONTRACT_CYCLE)
    assert codes(CONTRACT_CYCLE) == []


def test_cycle_slot_whose_row_is_not_written_is_still_reported(torch):
    column_only = CONTRACT_CYCLE.replace("    s[-1, :-1] = s_head[heads, range(len(heads))]\n", "")
    scope = run_snippet(column_only.split('if __name__')[0])
    scores, cycle = torch.randn(6, 6), torch.tensor([2, 4])
    out = scope["contract"](scores, cycle)
    scores.diagonal()[1:].fill_(scope["MIN"])
    assert torch.equal(out[-1, :-1], scores[5, [0, 1, 3, 5]])  # the slot's row silently holds the last node's
    assert codes(column_only) == ["GL010"]


# An evolutionary-search library declares each helper's ranks with a decorator that vmaps the body over
# extra leading dims: the [n, k] candidates reach index_select one [k] row at a time.
VMAPPED_TOURNAMENT = """
import torch

def expects_ndim(*ndims, randomness="error"):
    def decorator(fn):
        def decorated(*args):
            batched = tuple(0 if n is not None and isinstance(a, torch.Tensor) and a.dim() > n else None
                            for a, n in zip(args, ndims))
            if all(b is None for b in batched):
                return fn(*args)
            return torch.func.vmap(fn, in_dims=batched, randomness=randomness)(*args)
        return decorated
    return decorator

@expects_ndim(1, None, 1, randomness="different")
def run_tournaments(utilities, higher_is_better, candidate_indices):
    argbest = torch.argmax if higher_is_better else torch.argmin
    candidate_evals = torch.index_select(utilities, 0, candidate_indices)
    winner = argbest(candidate_evals)
    return torch.index_select(candidate_indices, 0, winner.reshape(1))[0]

def tournament_selection(evals, num_tournaments, tournament_size):
    [num_solutions] = evals.shape
    candidates = torch.randint(0, num_solutions, (num_tournaments, tournament_size))
    return candidates, run_tournaments(evals, True, candidates)

if __name__ == "__main__":
    evals = torch.randn(10)
    candidates, winners = tournament_selection(evals, 6, 3)
    assert winners.shape == (6,)
    assert torch.equal(evals[winners], evals[candidates].max(1).values)
"""


def test_caller_facts_do_not_pass_a_vmapping_decorator(torch):
    run_snippet(VMAPPED_TOURNAMENT)
    assert codes(VMAPPED_TOURNAMENT) == []


def test_the_same_helper_undecorated_is_still_reported(torch):
    plain = VMAPPED_TOURNAMENT.replace('@expects_ndim(1, None, 1, randomness="different")\n', "")
    scope = run_snippet(plain.split("if __name__")[0])
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        scope["tournament_selection"](torch.randn(10), 6, 3)
    assert codes(plain) == ["GL001"]


@pytest.mark.parametrize("decorator", ["@torch.no_grad()", "@beartype", "@auto_docstring"])
def test_caller_facts_pass_known_plain_decorators(decorator):
    plain = VMAPPED_TOURNAMENT.replace('@expects_ndim(1, None, 1, randomness="different")', decorator)
    assert codes(plain) == ["GL001"]


# A scheduling environment maps operations to jobs with a scatter_add of ones: the src is [bs, jobs, ops]
# and the index [bs, 1, ops], so only src's first job row is read, but every entry of src is 1 and each
# index entry gets its 1 all the same.
JOB_MAP_FROM_ONES = """
import torch

def get_job_ops_mapping(start_op_per_job: torch.Tensor, end_op_per_job: torch.Tensor, n_ops_max: int):
    bs, num_jobs = end_op_per_job.shape
    ops_seq_exp = torch.arange(n_ops_max)[None, None].expand(bs, num_jobs, -1)
    inside = (ops_seq_exp <= end_op_per_job[..., None]) & (ops_seq_exp >= start_op_per_job[..., None])
    ops_job_map = torch.stack(torch.nonzero(inside)[:, 1].split(n_ops_max), dim=0)  # (bs, max_ops)
    ops_job_bin_map = torch.scatter_add(
        input=ops_job_map.new_zeros((bs, num_jobs, n_ops_max)),
        dim=1,
        index=ops_job_map.unsqueeze(1),
        src=ops_job_map.new_ones((bs, num_jobs, n_ops_max)),
    )
    return ops_job_map, ops_job_bin_map

if __name__ == "__main__":
    start = torch.tensor([[0, 2], [0, 1]])
    end = torch.tensor([[1, 4], [0, 4]])
    ops_job_map, bin_map = get_job_ops_mapping(start, end, 5)
    assert ops_job_map.tolist() == [[0, 0, 1, 1, 1], [0, 1, 1, 1, 1]]
    assert torch.equal(bin_map, torch.nn.functional.one_hot(ops_job_map, 2).transpose(1, 2))
"""


def test_ones_src_longer_than_the_index_along_dim_is_silent(torch):
    run_snippet(JOB_MAP_FROM_ONES)
    assert codes(JOB_MAP_FROM_ONES) == []


def test_ones_src_that_needs_its_gradient_is_still_reported(torch):
    with_grad = JOB_MAP_FROM_ONES.replace(
        "src=ops_job_map.new_ones((bs, num_jobs, n_ops_max)),",
        "src=torch.ones(bs, num_jobs, n_ops_max, requires_grad=True),").replace(
        "input=ops_job_map.new_zeros((bs, num_jobs, n_ops_max)),", "input=torch.zeros(bs, num_jobs, n_ops_max),")
    scope = run_snippet(with_grad.split("if __name__")[0])
    _, bin_map = scope["get_job_ops_mapping"](torch.tensor([[0, 2]]), torch.tensor([[1, 4]]), 5)
    with pytest.raises(RuntimeError, match="invalid gradient"):
        bin_map.sum().backward()
    assert codes(with_grad) == ["GL009"]


def test_ones_src_wider_than_the_index_beside_dim_is_still_reported(torch):
    beside = """
import torch

def first_op_counts(bs: int, num_jobs: int, n_ops: int):
    first = torch.zeros(bs, 1, 1, dtype=torch.long)
    return torch.zeros(bs, num_jobs, n_ops).scatter_add(1, first, torch.ones(bs, num_jobs, n_ops))
"""
    out = run_snippet(beside)["first_op_counts"](2, 3, 4)
    assert out[:, :, 1:].sum() == 0  # only the first op's column is ever written
    assert codes(beside) == ["GL009"]


# A detector's label assigner stacks four [n_gts, n_predictions] distances along a new last dim and
# keeps the comment of its inputs' shape: the stack is [n_gts, n_predictions, 4], its min over the last
# dim [n_gts, n_predictions], and `[:, anchor_mask]` picks columns of a 2-d tensor.
CELLS_IN_BOXES = """
import torch

def get_in_boxes_info(gt_bboxes_per_image, x_centers, num_gt, total_num_anchors):
    # cell centers repeated to [n_gts, n_predictions]
    x_centers_per_image = x_centers.unsqueeze(0).repeat(num_gt, 1)
    gt_l = (gt_bboxes_per_image[:, 0] - 0.5 * gt_bboxes_per_image[:, 2]).unsqueeze(1).repeat(1, total_num_anchors)
    gt_r = (gt_bboxes_per_image[:, 0] + 0.5 * gt_bboxes_per_image[:, 2]).unsqueeze(1).repeat(1, total_num_anchors)
    b_l = x_centers_per_image - gt_l
    b_r = gt_r - x_centers_per_image
    bbox_deltas = torch.stack([b_l, b_r], 2)  # shape [n_gts, n_predictions]
    is_in_boxes = bbox_deltas.min(dim=-1).values > 0.0
    is_in_boxes_all = is_in_boxes.sum(dim=0) > 0
    return is_in_boxes[:, is_in_boxes_all]

if __name__ == "__main__":
    gt = torch.tensor([[2.0, 0.0, 2.0, 1.0], [6.0, 0.0, 2.0, 1.0]])
    inside = get_in_boxes_info(gt, torch.arange(8.0) + 0.5, 2, 8)
    assert inside.tolist() == [[True, True, False, False], [False, False, True, True]]
"""


def test_a_comment_with_fewer_dims_than_a_stack_makes_is_not_a_fact(torch):
    run_snippet(CELLS_IN_BOXES)
    assert codes(CELLS_IN_BOXES) == []
    # with a 1-d column mask, only the comment could make the boxes test 1-d
    column_mask = CELLS_IN_BOXES.replace("is_in_boxes_all = is_in_boxes.sum(dim=0) > 0",
                                         "is_in_boxes_all = torch.arange(total_num_anchors) >= 3")
    scope = run_snippet(column_mask.split("if __name__")[0])
    gt = torch.tensor([[2.0, 0.0, 2.0, 1.0], [6.0, 0.0, 2.0, 1.0]])
    assert scope["get_in_boxes_info"](gt, torch.arange(8.0) + 0.5, 2, 8).shape == (2, 5)
    assert codes(column_mask) == []


def test_a_one_dim_result_picked_by_a_column_mask_is_still_reported(torch):
    # the slip GL001 is for: the boxes test reduced over both dims, then a [n_predictions] mask on dim 1
    reduced = CELLS_IN_BOXES.replace("# shape [n_gts, n_predictions]", "# shape [n_gts, n_predictions, 2]").replace(
        "is_in_boxes = bbox_deltas.min(dim=-1).values > 0.0",
        "is_in_boxes = (bbox_deltas.min(dim=-1).values > 0.0).all(dim=-1)").replace(
        "is_in_boxes_all = is_in_boxes.sum(dim=0) > 0", "is_in_boxes_all = x_centers > 0.0")
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(reduced)
    assert codes(reduced) == ["GL001"]


# A molecule generator's flow decodes one graph at a time (`assert x.size(0) == 1`, edge_index [1, 2]) and
# builds the edge's index from the batch size it read off x; its comments name the batch dim of the index
# and of the node embeddings alike. Under the caller's facts the index is [1, 2, d] and so is the batch.
EDGE_EMBEDDINGS = '''
import torch
import torch.nn as nn


class RGCN(nn.Module):
    def __init__(self, nfeat, nhid):
        super().__init__()
        self.lin = nn.Linear(nfeat, nhid)

    def forward(self, x, adj):
        return self.lin(torch.matmul(adj.sum(1), x))


class GraphFlow(nn.Module):
    def __init__(self, rgcn, emb_size=8):
        super().__init__()
        self.emb_size = emb_size
        self.rgcn = rgcn

    def reverse(self, x, adj, latent, edge_index=None):
        """
        Args:
            x: generated subgraph node features so far with shape (1, N, 9)
            adj: generated subgraph adjacency features so far with shape (1, 4, N, N)
            edge_index [1, 2]
        """
        assert x.size(0) == 1
        assert adj.size(0) == 1
        assert edge_index is None or (edge_index.size(0) == 1 and edge_index.size(1) == 2)
        return self._get_embs_edge(x, adj, edge_index) + latent

    def _get_embs_edge(self, x, adj, index):
        """
        Args:
            x: current node feature matrix with shape (batch, N, 9)
            adj: current adjacency feature matrix with shape (batch, 4, N, N)
            index: link prediction index with shape (batch, 2)
        """
        batch_size = x.size(0)
        assert batch_size == index.size(0)
        adj = adj[:, :3]
        node_emb = self.rgcn(x, adj)  # (batch, N, d)
        graph_emb = torch.sum(node_emb, dim=1, keepdim=False).contiguous().view(batch_size, 1, -1)
        index = index.view(batch_size, -1, 1).repeat(1, 1, self.emb_size)  # (batch, 2, d)
        graph_node_emb = torch.cat((torch.gather(node_emb, dim=1, index=index), graph_emb), dim=1)
        return graph_node_emb.view(batch_size, -1)


if __name__ == "__main__":
    flow = GraphFlow(RGCN(9, 8))
    x, adj = torch.randn(1, 5, 9), torch.rand(1, 4, 5, 5)
    out = flow.reverse(x, adj, torch.zeros(1, 24), torch.tensor([[0, 3]]))
    assert out.shape == (1, 24)
'''


def test_an_index_of_one_on_a_dim_named_like_the_inputs_is_that_dim(torch):
    run_snippet(EDGE_EMBEDDINGS)
    assert codes(EDGE_EMBEDDINGS) == []


def test_an_index_cut_to_the_first_graph_is_still_reported(torch):
    # the slip GL005 is for: the index keeps graph 0's edge only, and gather reads no other graph
    first_graph = """
import torch


def edge_embs(node_emb, index):
    \"\"\"
    Args:
        node_emb: node embeddings with shape (batch, N, d)
        index: link prediction index with shape (batch, 2)
    \"\"\"
    index = index[:1].view(1, -1, 1).repeat(1, 1, node_emb.size(-1))  # (1, 2, d)
    return torch.gather(node_emb, dim=1, index=index)


if __name__ == "__main__":
    out = edge_embs(torch.randn(2, 5, 8), torch.tensor([[0, 3], [1, 2]]))
    assert out.shape == (1, 2, 8)  # the second graph's edge is never read
"""
    run_snippet(first_graph)
    assert codes(first_graph) == ["GL005"]


# A constrained k-means assigns each instance its heaviest free node: `w.max(dim=-1, keepdims=True)` (the
# NumPy spelling, which torch takes as keepdim) gives [n, 1] positions, a fine gather index into [n, m].
HEAVIEST_FREE_NODE = """
import torch


def heaviest_free_node(weights: torch.Tensor, available: torch.Tensor):
    n = available.size(0)
    w = weights[available].view(n, -1)
    max_w, max_idx = w.max(dim=-1, keepdims=True)
    return available.nonzero(as_tuple=True)[1].view(n, -1).gather(dim=-1, index=max_idx).squeeze(-1), max_w


if __name__ == "__main__":
    weights = torch.tensor([[0.1, 0.9, 0.5, 0.3], [0.7, 0.2, 0.4, 0.6]])
    available = torch.tensor([[True, False, True, False], [False, True, True, False]])
    node, max_w = heaviest_free_node(weights, available)
    assert node.tolist() == [2, 2] and max_w.shape == (2, 1)
"""


def test_keepdims_is_torchs_keepdim(torch):
    run_snippet(HEAVIEST_FREE_NODE)
    assert codes(HEAVIEST_FREE_NODE) == []


def test_a_max_without_keepdim_gathered_into_two_dims_is_still_reported(torch):
    dropped = HEAVIEST_FREE_NODE.replace("keepdims=True", "keepdims=False")
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(dropped)
    assert codes(dropped) == ["GL001"]


# An OOD loss keeps a queue of features per class and, in a loop over the batch, rolls the queue of each
# sample's class: `dict_key = target[index]` is one class id, so each statement writes one queue and the
# next sample of that class reads what it wrote.
CLASS_QUEUES = """
import torch
from torch import nn


class ClassQueues(nn.Module):
    def __init__(self, num_classes: int, sample_number: int, dim: int):
        super().__init__()
        self.register_buffer("data_dict", torch.zeros(num_classes, sample_number, dim))

    def update(self, features, target):
        for index in range(len(target)):
            dict_key = target[index]  # get class id
            self.data_dict[dict_key] = torch.cat(
                (self.data_dict[dict_key][1:], features[index].detach().view(1, -1)), 0
            )


if __name__ == "__main__":
    queues = ClassQueues(3, 2, 4)
    features = torch.arange(12.0).view(3, 4)
    queues.update(features, torch.tensor([1, 1, 0]))
    assert queues.data_dict[1].tolist() == [features[0].tolist(), features[1].tolist()]
"""


def test_a_name_given_one_element_of_the_labels_writes_one_position(torch):
    run_snippet(CLASS_QUEUES)
    assert codes(CLASS_QUEUES) == []


def test_rolling_every_queue_of_the_batch_at_once_is_still_reported(torch):
    # the slip GL013 is for: the whole batch's class ids at once, and two samples of class 1 keep one
    at_once = """
import torch
from torch import nn


class ClassQueues(nn.Module):
    def __init__(self, num_classes: int, sample_number: int, dim: int):
        super().__init__()
        self.register_buffer("data_dict", torch.zeros(num_classes, sample_number, dim))

    def update(self, features, target):
        dict_key = target  # class ids of the whole batch
        self.data_dict[dict_key] = torch.cat(
            (self.data_dict[dict_key][:, 1:], features.detach().unsqueeze(1)), 1
        )


if __name__ == "__main__":
    queues = ClassQueues(3, 2, 4)
    features = torch.arange(12.0).view(3, 4)
    queues.update(features, torch.tensor([1, 1, 0]))
    assert queues.data_dict[1].tolist() == [[0.0] * 4, features[1].tolist()]  # features[0] is lost
"""
    run_snippet(at_once)
    assert codes(at_once) == ["GL013"]



# A pose head keeps the decoder slots of the keypoints, every slot but each group's first (its box):
# range and filter read only the head's own configuration, so the list is the same on every call (17 * 4
# positions here) and no input empties it.
KEYPOINT_SLOTS = """import torch
from torch import nn


class PoseDecoder(nn.Module):
    def __init__(self, num_keypoints: int = 17, num_group: int = 4, embed_dims: int = 8):
        super().__init__()
        self.num_keypoints = num_keypoints
        self.num_group = num_group
        self.pose_embed = nn.Linear(embed_dims, 2)
        self.kpt_index = [
            x for x in range(self.num_group * (self.num_keypoints + 1))
            if x % (self.num_keypoints + 1) != 0
        ]

    def forward(self, output, effect_num_dn: int):
        output_kpt = output[effect_num_dn:].index_select(
            0, torch.tensor(self.kpt_index, device=output.device))
        return self.pose_embed(output_kpt)


if __name__ == "__main__":
    decoder = PoseDecoder()
    out = decoder(torch.randn(5 + 4 * 18, 2, 8), 5)
    assert out.shape == (4 * 17, 2, 2)
"""


def test_a_filtered_range_of_the_modules_configuration_is_not_emptied_by_inputs(torch):
    run_snippet(KEYPOINT_SLOTS)
    assert codes(KEYPOINT_SLOTS) == []


def test_a_filter_over_the_inputs_values_is_still_reported(torch):
    # the slip GL008 is for: a frame where no keypoint is visible keeps nothing, and the index is float32
    visible = """import torch


def visible_keypoints(output, visibility):
    kpt_index = [k for k in range(visibility.size(0)) if visibility[k] > 0.5]
    return output.index_select(0, torch.tensor(kpt_index, device=output.device))


if __name__ == "__main__":
    output = torch.randn(17, 8)
    assert visible_keypoints(output, torch.rand(17) + 0.6).shape == (17, 8)
    visible_keypoints(output, torch.zeros(17))
"""
    with pytest.raises(RuntimeError, match="int32 or int64"):
        run_snippet(visible)
    assert codes(visible) == ["GL008"]


# A structure-learning environment sorts the nodes of a DAG topologically: it counts each node's parents
# in a loop over the edge list's targets, `for child in edge_index[1]`, so each pass adds 1 at one node and
# a node with two parents is counted twice.
TOPOLOGICAL_ORDER = """
import torch


def topological_order(edge_index: torch.Tensor, num_nodes: int) -> list:
    in_degree = torch.zeros(num_nodes, dtype=torch.long)
    for child in edge_index[1]:
        in_degree[child] += 1
    order = []
    queue = [int(i) for i in torch.nonzero(in_degree == 0, as_tuple=False)]
    while queue:
        node = queue.pop(0)
        order.append(node)
        children = edge_index[1][edge_index[0] == node]
        for child in children.tolist():
            in_degree[child] -= 1
            if in_degree[child] == 0:
                queue.append(child)
    return order


if __name__ == "__main__":
    edge_index = torch.tensor([[0, 1, 0], [2, 2, 1]])
    assert topological_order(edge_index, 3) == [0, 1, 2]
"""


def test_a_loop_over_an_edge_lists_row_adds_one_node_per_pass(torch):
    run_snippet(TOPOLOGICAL_ORDER)
    assert codes(TOPOLOGICAL_ORDER) == []


def test_counting_the_whole_row_at_once_is_still_reported(torch):
    # the slip GL013 is for: node 2 has two parents, and the vectorised += counts it once
    at_once = """
import torch


def in_degrees(edge_index: torch.Tensor, num_nodes: int):
    in_degree = torch.zeros(num_nodes, dtype=torch.long)
    in_degree[edge_index[1]] += 1
    return in_degree


if __name__ == "__main__":
    assert in_degrees(torch.tensor([[0, 1, 0], [2, 2, 1]]), 3).tolist() == [0, 1, 1]  # not [0, 1, 2]
"""
    run_snippet(at_once)
    assert codes(at_once) == ["GL013"]


# A pivoted Cholesky keeps one permutation of the columns per batch member, `arange(n).repeat(*batch_shape,
# 1)`: the copies lie in other rows, and each row names every column once, so the scatter of the updated
# diagonal along the last dim writes each position once.
PIVOTED_DIAGONAL = """
import torch


def pivoted_diagonal(matrix: torch.Tensor, max_iter: int):
    batch_shape = matrix.shape[:-2]
    n = matrix.shape[-1]
    matrix_diag = torch.diagonal(matrix, dim1=-2, dim2=-1).clone()
    L = torch.zeros(*batch_shape, max_iter, n, dtype=matrix.dtype)
    permutation = torch.arange(0, n, dtype=torch.long)
    permutation = permutation.repeat(*batch_shape, 1)
    for m in range(max_iter):
        permuted_diags = torch.gather(matrix_diag, -1, permutation[..., m:])
        max_diag_values, max_diag_indices = torch.max(permuted_diags, -1)
        max_diag_indices = max_diag_indices + m
        old_pi_m = permutation[..., m].clone()
        permutation[..., m].copy_(permutation.gather(-1, max_diag_indices.unsqueeze(-1)).squeeze_(-1))
        permutation.scatter_(-1, max_diag_indices.unsqueeze(-1), old_pi_m.unsqueeze(-1))
        pi_m = permutation[..., m].contiguous()
        L_m = L[..., m, :]
        L_m.scatter_(-1, pi_m.unsqueeze(-1), max_diag_values.sqrt().unsqueeze_(-1))
        if m + 1 < n:
            row = torch.gather(matrix, -2, pi_m[..., None, None].expand(*batch_shape, 1, n)).squeeze(-2)
            pi_i = permutation[..., m + 1:].contiguous()
            L_m_new = row.gather(-1, pi_i)
            if m > 0:
                L_prev = L[..., :m, :].gather(-1, pi_i.unsqueeze(-2).repeat(*(1 for _ in batch_shape), m, 1))
                update = L[..., :m, :].gather(-1, pi_m.view(*pi_m.shape, 1, 1).repeat(*(1 for _ in batch_shape), m, 1))
                L_m_new -= torch.sum(update * L_prev, dim=-2)
            L_m_new /= L_m.gather(-1, pi_m.unsqueeze(-1))
            L_m.scatter_(-1, pi_i, L_m_new)
            matrix_diag_current = matrix_diag.gather(-1, pi_i)
            matrix_diag.scatter_(-1, pi_i, matrix_diag_current - L_m_new ** 2)
            L[..., m, :] = L_m
    return L.mT, permutation


if __name__ == "__main__":
    a = torch.randn(2, 5, 5, dtype=torch.float64)
    matrix = a @ a.mT + 5 * torch.eye(5, dtype=torch.float64)
    L, permutation = pivoted_diagonal(matrix, 5)
    assert torch.allclose(L @ L.mT, matrix)
    assert all(sorted(row.tolist()) == list(range(5)) for row in permutation)
"""


def test_copies_of_a_permutation_in_other_rows_are_scattered_once_per_row(torch):
    run_snippet(PIVOTED_DIAGONAL)
    assert codes(PIVOTED_DIAGONAL) == []


def test_copies_along_the_scattered_dim_are_still_reported(torch):
    # the slip GL013 is for: `arange(n).repeat(2)` names every column twice in its one row, and the
    # read-modify-write scatter adds once per column, not twice
    twice = """
import torch


def count_columns(counts: torch.Tensor):
    cols = torch.arange(counts.shape[-1]).repeat(2)
    counts.scatter_(-1, cols, counts.gather(-1, cols) + 1)
    return counts


if __name__ == "__main__":
    assert count_columns(torch.zeros(3)).tolist() == [1.0, 1.0, 1.0]  # not [2.0, 2.0, 2.0]
"""
    run_snippet(twice)
    assert codes(twice) == ["GL013"]
    flattened = twice.replace("torch.arange(counts.shape[-1]).repeat(2)",
                              "torch.arange(counts.shape[-1]).repeat(2, 1).view(-1)")
    run_snippet(flattened)
    assert codes(flattened) == ["GL013"]


# A volume renderer accumulates per-sample values along rays; its docstring gives two forms of the weights,
# batched `(n_rays, n_samples)` or, with ray indices, flattened `(all_samples,)`, and the index_add_ branch
# runs only on the flattened form (it asserts so), where src is [all_samples, D] like the [n_rays, D] buffer.
ACCUMULATE_ALONG_RAYS = '''
import torch
from typing import Optional
from torch import Tensor


def accumulate_along_rays(
    weights: Tensor,
    values: Optional[Tensor] = None,
    ray_indices: Optional[Tensor] = None,
    n_rays: Optional[int] = None,
) -> Tensor:
    """Accumulate volumetric values along the ray.

    Args:
        weights: Weights to be accumulated. If `ray_indices` not provided,
            `weights` must be batched with shape (n_rays, n_samples). Else it
            must be flattened with shape (all_samples,).
        values: Values to be accumulated. If `ray_indices` not provided,
            `values` must be batched with shape (n_rays, n_samples, D). Else it
            must be flattened with shape (all_samples, D). None means
            we accumulate weights along rays. Default: None.
        ray_indices: Ray indices of the samples with shape (all_samples,).
        n_rays: Number of rays. Should be provided together with `ray_indices`.

    Returns:
        Accumulated values with shape (n_rays, D).
    """
    if values is None:
        src = weights[..., None]
    else:
        assert values.dim() == weights.dim() + 1
        src = weights[..., None] * values
    if ray_indices is not None:
        assert n_rays is not None, "n_rays must be provided"
        assert weights.dim() == 1, "weights must be flattened"
        outputs = torch.zeros((n_rays, src.shape[-1]), device=src.device, dtype=src.dtype)
        outputs.index_add_(0, ray_indices, src)
    else:
        outputs = torch.sum(src, dim=-2)
    return outputs


if __name__ == "__main__":
    weights, rgbs = torch.rand(7), torch.rand(7, 3)
    ray_indices = torch.tensor([0, 0, 0, 1, 1, 2, 2])
    assert accumulate_along_rays(weights, rgbs, ray_indices, 3).shape == (3, 3)
    assert accumulate_along_rays(weights, None, ray_indices, 3).shape == (3, 1)
    assert accumulate_along_rays(torch.rand(3, 4), torch.rand(3, 4, 3)).shape == (3, 3)
'''


def test_a_docstring_giving_two_ranks_of_a_parameter_gives_neither(torch):
    run_snippet(ACCUMULATE_ALONG_RAYS)
    assert codes(ACCUMULATE_ALONG_RAYS) == []


def test_a_docstring_giving_one_rank_still_shows_the_mismatch(torch):
    # the slip GL001 is for: the weights are only ever batched, and the per-ray buffer gets a 3-d src
    batched = '''
import torch
from torch import Tensor


def accumulate_along_rays(weights: Tensor, values: Tensor, ray_indices: Tensor, n_rays: int) -> Tensor:
    """Accumulate volumetric values along the ray.

    Args:
        weights: Weights to be accumulated, batched with shape (n_rays, n_samples).
        values: Values to be accumulated, batched with shape (n_rays, n_samples, D).
        ray_indices: Ray of each sample.
        n_rays: Number of rays.
    """
    src = weights[..., None] * values
    outputs = torch.zeros((n_rays, src.shape[-1]), device=src.device, dtype=src.dtype)
    outputs.index_add_(0, ray_indices, src)
    return outputs


if __name__ == "__main__":
    accumulate_along_rays(torch.rand(3, 4), torch.rand(3, 4, 3), torch.arange(3), 3)
'''
    with pytest.raises(RuntimeError, match="dim"):
        run_snippet(batched)
    assert codes(batched) == ["GL001"]



# A detector's validation matches detections to labels at ten IoU thresholds; each match row is built as a
# tensor and copied to NumPy, `...cpu().numpy()  # [label, detect, iou]`: the comment names the array's three
# columns, not three dims, and the rows are sorted by the iou column. A NumPy copy is no tensor a comment
# can shape (of a known dtype, .numpy() already gave an array the comment did not touch).
MATCHES_BY_IOU = '''import numpy as np
import torch


def box_iou(box1, box2, eps=1e-7):
    """
    Return intersection-over-union (Jaccard index) of boxes.
    Arguments:
        box1 (Tensor[N, 4])
        box2 (Tensor[M, 4])
    Returns:
        iou (Tensor[N, M]): the NxM matrix containing the pairwise
            IoU values for every element in boxes1 and boxes2
    """
    (a1, a2), (b1, b2) = box1.unsqueeze(1).chunk(2, 2), box2.unsqueeze(0).chunk(2, 2)
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp(0).prod(2)
    return inter / ((a2 - a1).prod(2) + (b2 - b1).prod(2) - inter + eps)


def process_batch(detections, labels, iouv):
    """
    Return correct prediction matrix
    Arguments:
        detections (array[N, 6]), x1, y1, x2, y2, conf, class
        labels (array[M, 5]), class, x1, y1, x2, y2
    Returns:
        correct (array[N, 10]), for 10 IoU levels
    """
    correct = np.zeros((detections.shape[0], iouv.shape[0])).astype(bool)
    iou = box_iou(labels[:, 1:], detections[:, :4])
    correct_class = labels[:, 0:1] == detections[:, 5]
    for i in range(len(iouv)):
        x = torch.where((iou >= iouv[i]) & correct_class)  # IoU > threshold and classes match
        if x[0].shape[0]:
            matches = torch.cat((torch.stack(x, 1), iou[x[0], x[1]][:, None]), 1).cpu().numpy()  # [label, detect, iou]
            if x[0].shape[0] > 1:
                matches = matches[matches[:, 2].argsort()[::-1]]
                matches = matches[np.unique(matches[:, 1], return_index=True)[1]]
                matches = matches[np.unique(matches[:, 0], return_index=True)[1]]
            correct[matches[:, 1].astype(int), i] = True
    return torch.tensor(correct, dtype=torch.bool, device=iouv.device)



if __name__ == "__main__":
    iouv = torch.linspace(0.5, 0.95, 10)
    detections = torch.tensor([[0.0, 0.0, 10.0, 10.0, 0.9, 0.0], [20.0, 20.0, 30.0, 29.0, 0.8, 0.0]])
    labels = torch.tensor([[0.0, 0.0, 0.0, 10.0, 10.0], [0.0, 20.0, 20.0, 30.0, 30.0]])
    correct = process_batch(detections, labels, iouv)
    assert correct.shape == (2, 10)
    assert correct[:, 0].tolist() == [True, True] and correct[:, -1].tolist() == [True, False]
'''


def test_a_comment_on_a_numpy_copy_gives_it_no_tensor_shape(torch):
    run_snippet(MATCHES_BY_IOU)
    assert codes(MATCHES_BY_IOU) == []


def test_a_comment_naming_more_dims_than_stacked_positions_have_is_not_read(torch):
    # kept a tensor, the match rows are [N, 3] all the same: torch.stack(torch.where(m), 1) is 2-d whatever
    # the mask, and the code's two dims win over the comment's three
    as_tensor = (MATCHES_BY_IOU
                 .replace(".cpu().numpy()  # [label, detect, iou]", "  # [label, detect, iou]")
                 .replace("matches[matches[:, 2].argsort()[::-1]]", "matches[matches[:, 2].argsort(descending=True)]")
                 .replace("matches[np.unique(matches[:, 1], return_index=True)[1]]", "matches[first_of_each(matches[:, 1])]")
                 .replace("matches[np.unique(matches[:, 0], return_index=True)[1]]", "matches[first_of_each(matches[:, 0])]")
                 .replace("correct[matches[:, 1].astype(int), i]", "correct[matches[:, 1].long().numpy(), i]")
                 .replace("def process_batch(", "def first_of_each(values):\n"
                          "    _, index = np.unique(values.numpy(), return_index=True)\n"
                          "    return torch.from_numpy(index)\n\n\ndef process_batch("))
    assert "first_of_each(matches[:, 0])" in as_tensor and ".numpy()  #" not in as_tensor
    run_snippet(as_tensor)
    assert codes(as_tensor) == []


def test_positions_of_the_detections_used_on_the_labels_are_still_reported(torch):
    # the slip the rules are for: argsort over the detections (dim 1 of iou) indexes the labels
    wrong_table = '''import torch


def box_iou(box1, box2, eps=1e-7):
    (a1, a2), (b1, b2) = box1.unsqueeze(1).chunk(2, 2), box2.unsqueeze(0).chunk(2, 2)
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp(0).prod(2)
    return inter / ((a2 - a1).prod(2) + (b2 - b1).prod(2) - inter + eps)


def best_detection_classes(detections, labels):
    iou = box_iou(labels[:, 1:], detections[:, :4])  # [labels, detections]
    best = iou.argsort(dim=1, descending=True)[:, 0]  # best detection of each label
    return labels[best, 0]  # the class of the best detection


if __name__ == "__main__":
    detections = torch.tensor([[0.0, 0.0, 10.0, 10.0, 0.9, 3.0], [20.0, 20.0, 30.0, 29.0, 0.8, 5.0],
                               [40.0, 40.0, 50.0, 50.0, 0.7, 7.0]])
    labels = torch.tensor([[3.0, 40.0, 40.0, 50.0, 50.0], [5.0, 0.0, 0.0, 10.0, 10.0]])
    best_detection_classes(detections, labels)
'''
    with pytest.raises(IndexError, match="out of bounds"):
        run_snippet(wrong_table)
    assert codes(wrong_table) == ["GL011"]


# A learning-to-rank metric takes the discounted gains of each slate: the gains come from a gain function
# the caller passes (of unknown shape to the analysis), the discounts are one [slate_length] vector made
# from arange, and their product is [batch_size, slate_length], cut to the largest rank asked for.
RANKED_GAINS = '''import numpy as np
import torch

PADDED_Y_VALUE = -1


def _true_sorted_by_preds(y_pred, y_true, padding_indicator=PADDED_Y_VALUE):
    mask = y_true == padding_indicator
    y_pred[mask] = float("-inf")
    y_true[mask] = 0.0
    _, indices = y_pred.sort(descending=True, dim=-1)
    return torch.gather(y_true, dim=1, index=indices)


def dcg(y_pred, y_true, ats=None, gain_function=lambda x: torch.pow(2, x) - 1, padding_indicator=PADDED_Y_VALUE):
    """
    :param y_pred: predictions from the model, shape [batch_size, slate_length]
    :param y_true: ground truth labels, shape [batch_size, slate_length]
    :return: DCG values for each slate and evaluation position, shape [batch_size, len(ats)]
    """
    y_true = y_true.clone()
    y_pred = y_pred.clone()
    actual_length = y_true.shape[1]
    if ats is None:
        ats = [actual_length]
    ats = [min(at, actual_length) for at in ats]
    true_sorted_by_preds = _true_sorted_by_preds(y_pred, y_true, padding_indicator)
    discounts = torch.tensor(1) / torch.log2(torch.arange(true_sorted_by_preds.shape[1], dtype=torch.float) + 2.0)
    gains = gain_function(true_sorted_by_preds)
    discounted_gains = (gains * discounts)[:, :np.max(ats)]
    cum_dcg = torch.cumsum(discounted_gains, dim=1)
    ats_tensor = torch.tensor(ats, dtype=torch.long) - torch.tensor(1)
    return cum_dcg[:, ats_tensor]


if __name__ == "__main__":
    y_pred = torch.tensor([[0.5, 0.2, 0.9], [0.1, 0.3, 0.2]])
    y_true = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])
    out = dcg(y_pred, y_true, ats=[1, 3])
    assert out.shape == (2, 2)
    assert torch.allclose(out[0], torch.tensor([3.0, 3.0 + 1.0 / float(np.log2(3.0))]))
'''


def test_a_product_with_an_operand_of_unknown_shape_has_no_proven_rank(torch):
    run_snippet(RANKED_GAINS)
    assert codes(RANKED_GAINS) == []
    # a gain function the caller passes, here plain values: the same [batch_size, slate_length] product
    linear = RANKED_GAINS.replace("out = dcg(y_pred, y_true, ats=[1, 3])",
                                  "out = dcg(y_pred, y_true, ats=[1, 3], gain_function=lambda x: x + 1.0)")
    linear = linear.replace("torch.tensor([3.0, 3.0 + 1.0 / float(np.log2(3.0))])",
                            "torch.tensor([3.0, 3.0 + 2.0 / float(np.log2(3.0)) + 0.5])")
    run_snippet(linear)
    assert codes(linear) == []


def test_the_discounts_alone_cut_by_two_indices_are_still_reported(torch):
    # the slip the check is for: the discounts, one [slate_length] vector, cut as if they were a batch
    wrong = RANKED_GAINS.replace("(gains * discounts)[:, :np.max(ats)]", "(discounts / discounts[0])[:, :np.max(ats)]")
    assert wrong != RANKED_GAINS
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL001"]


# An atomistic-simulation neighbour list bins positions: the fractional coordinates come from a linear
# solve the analysis does not size, times the [3] bin counts, and are raveled three columns at a time.
CELL_BINS = '''import torch


def ravel_3d(idx_3d: torch.Tensor, shape: torch.Tensor) -> torch.Tensor:
    """Convert 3D indices into linear indices for an array of given shape.

    Args:
        idx_3d (torch.Tensor): A tensor of shape [-1, 3]
            representing the 3D indices to be converted.
        shape (torch.Tensor): A tensor of shape [3]
            representing the dimensions of the array.
    """
    return idx_3d[:, 2] + shape[2] * (idx_3d[:, 1] + shape[1] * idx_3d[:, 0])


def get_linear_bin_idx(cell: torch.Tensor, pos: torch.Tensor, n_bins_s: torch.Tensor) -> torch.Tensor:
    """Calculate the linear bin index for each position within a defined box.

    Args:
        cell (torch.Tensor): A tensor of shape [3, 3]
            representing the cell vectors defining the box.
        pos (torch.Tensor): A tensor of shape [-1, 3]
            representing the set of positions to be binned.
        n_bins_s (torch.Tensor): A tensor of shape [3]
            representing the number of bins in each direction.
    """
    scaled_pos = torch.linalg.solve(cell.t(), pos.t()).t()
    bin_index_s = torch.floor(scaled_pos * n_bins_s).to(torch.long)
    return ravel_3d(bin_index_s, n_bins_s)


if __name__ == "__main__":
    cell = torch.eye(3) * 10.0
    pos = torch.tensor([[1.0, 1.0, 1.0], [6.0, 1.0, 9.0], [9.0, 9.0, 9.0]])
    bins = get_linear_bin_idx(cell, pos, torch.tensor([2, 2, 2]))
    assert bins.tolist() == [0, 5, 7]
'''


def test_bins_of_an_unsized_solve_times_the_bin_counts_are_no_rank_mismatch(torch):
    run_snippet(CELL_BINS)
    assert codes(CELL_BINS) == []


def test_one_bin_made_as_a_vector_and_raveled_is_still_reported(torch):
    # the slip the check is for: one bin made [3], not [1, 3], handed to the helper that cuts columns
    wrong = CELL_BINS.replace('''if __name__ == "__main__":''', '''def bin_of_origin(n_bins_s: torch.Tensor) -> torch.Tensor:
    origin_bin = torch.zeros(3, dtype=torch.long)
    return ravel_3d(origin_bin, n_bins_s)


if __name__ == "__main__":
    bin_of_origin(torch.tensor([2, 2, 2]))''')
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL001"] * 3


# An atomistic simulation's convergence test takes the largest force on any atom of each system: the
# norms of the per-atom forces (>= 0) maxed per system onto zeros, where the buffer's 0 changes nothing.
SYSTEM_MAX_FORCE = '''import torch


class SimState:
    def __init__(self, forces, system_idx, n_systems):
        self.forces = forces
        self.system_idx = system_idx
        self.n_systems = n_systems
        self.device = forces.device
        self.dtype = forces.dtype


def systemwise_max_force(state: SimState) -> torch.Tensor:
    """Compute the maximum force per system.

    Returns:
        torch.Tensor: Maximum forces per system
    """
    system_wise_max_force = torch.zeros(state.n_systems, device=state.device, dtype=state.dtype)
    max_forces = state.forces.norm(dim=1)
    return system_wise_max_force.scatter_reduce(dim=0, index=state.system_idx, src=max_forces, reduce="amax")


def systemwise_max_force_linalg(forces: torch.Tensor, system_idx: torch.Tensor, n_systems: int) -> torch.Tensor:
    out = torch.zeros(n_systems, dtype=forces.dtype)
    return out.scatter_reduce(0, system_idx, torch.linalg.vector_norm(forces, dim=-1), reduce="amax")


if __name__ == "__main__":
    forces = torch.tensor([[-3.0, 0.0, -4.0], [0.0, -1.0, 0.0], [0.0, 0.0, -2.0]])
    system_idx = torch.tensor([0, 0, 1])
    state = SimState(forces, system_idx, 2)
    expected = torch.stack([forces[system_idx == s].norm(dim=1).max() for s in range(2)])
    assert torch.equal(systemwise_max_force(state), expected)
    assert torch.equal(systemwise_max_force_linalg(forces, system_idx, 2), expected)
'''


def test_norms_maxed_onto_zeros_are_the_max(torch):
    run_snippet(SYSTEM_MAX_FORCE)
    assert codes(SYSTEM_MAX_FORCE) == []


def test_signed_force_components_maxed_onto_zeros_are_still_reported(torch):
    # the slip the rule is for: the largest signed component, not the norm, is clipped to 0 by the buffer
    wrong = SYSTEM_MAX_FORCE.replace("max_forces = state.forces.norm(dim=1)", "max_forces = state.forces.sum(dim=1)")
    wrong = wrong.replace("torch.linalg.vector_norm(forces, dim=-1)", "forces.sum(dim=-1)")
    wrong = wrong.replace("norm(dim=1).max()", "sum(dim=1).max()")
    with pytest.raises(AssertionError):
        run_snippet(wrong)  # the systems' maxima, -1.0 and -2.0, come back as 0.0
    assert codes(wrong) == ["GL014", "GL014"]


# A multi-task graph model's training step gets its labels as a dict, one tensor per task, batched with a
# leading dim of 1 by the device's data loader; each task's tensor is squeezed in place, key by key.
TASK_LABELS = '''import torch


class IPUPredictorModule:
    def training_step(self, batch, batch_idx):
        features, labels = batch["features"], batch["labels"]
        features, labels = self.squeeze_input_dims(features, labels)
        return {"features": features, "labels": labels}

    def squeeze_input_dims(self, features, labels):
        for key, tensor in features.items():
            if isinstance(tensor, torch.Tensor):
                features[key] = features[key].squeeze(0)

        for key in labels:
            labels[key] = labels[key].squeeze(0)

        return features, labels


if __name__ == "__main__":
    batch = {"features": {"feat": torch.randn(1, 5, 8)},
             "labels": {"graph_homo": torch.randn(1, 4, 1), "nodes_dipole": torch.randn(1, 5, 3)}}
    step = IPUPredictorModule().training_step(batch, 0)
    assert {k: tuple(v.shape) for k, v in step["labels"].items()} == {"graph_homo": (4, 1), "nodes_dipole": (5, 3)}
    assert step["features"]["feat"].shape == (5, 8)
'''


def test_the_keys_of_a_dict_iterated_and_written_back_are_no_repeating_index(torch):
    run_snippet(TASK_LABELS)
    assert codes(TASK_LABELS) == []


def test_a_tally_by_labels_written_back_is_still_reported(torch):
    # the slip the rule is for: a count per class read and written at the labels themselves, where a
    # class seen twice in the batch is counted once
    wrong = TASK_LABELS.replace('''        return features, labels


if __name__''', '''        return features, labels

    def class_counts(self, labels, num_classes):
        counts = torch.zeros(num_classes)
        counts[labels] = counts[labels] + 1
        return counts


if __name__''')
    assert wrong != TASK_LABELS
    scope = run_snippet(wrong)
    counts = scope["IPUPredictorModule"]().class_counts(torch.tensor([0, 0, 1]), 2)
    assert counts.tolist() == [1.0, 1.0]  # class 0, seen twice, is counted once
    assert codes(wrong) == ["GL013"]


# A tree-ensemble compiler's base module runs the trees as matrix products and leaves the sum over the trees
# to `self.aggregation`, which the base defines as the identity and every concrete subclass overrides
# (decision trees sum the trees and transpose to [batch, classes]); the class picked per row indexes the
# class labels with a 1-d argmax.
TREE_AGGREGATION = '''import torch


class AbstractTreeImpl(torch.nn.Module):
    def __init__(self, n_trees, n_features, n_classes, classes):
        super().__init__()
        self.n_trees = n_trees
        self.n_classes = n_classes
        self.weight = torch.nn.Parameter(torch.randn(n_trees * n_classes, n_features), requires_grad=False)
        self.classes = torch.nn.Parameter(torch.tensor(classes), requires_grad=False)

    def aggregation(self, x):
        return x

    def forward(self, x):
        x = torch.mm(self.weight, x.t())
        x = x.view(self.n_trees, self.n_classes, -1)
        x = self.aggregation(x)
        return torch.index_select(self.classes, 0, torch.argmax(x, dim=1)), x


class DecisionTreeImpl(AbstractTreeImpl):
    def aggregation(self, x):
        output = x.sum(0).t()
        return output


class GBDTImpl(AbstractTreeImpl):
    def aggregation(self, x):
        return torch.sigmoid(x.sum(0).t())


if __name__ == "__main__":
    model = DecisionTreeImpl(3, 4, 2, [10, 20])
    rows = torch.randn(5, 4)
    labels, scores = model(rows)
    assert scores.shape == (5, 2) and labels.shape == (5,)
    assert labels.tolist() == [[10, 20][k] for k in scores.argmax(dim=1).tolist()]
    assert GBDTImpl(3, 4, 2, [10, 20])(rows)[0].shape == (5,)
'''


def test_a_method_every_subclass_overrides_is_not_the_base_definition(torch):
    run_snippet(TREE_AGGREGATION)
    assert codes(TREE_AGGREGATION) == []


def test_the_base_identity_left_unoverridden_is_still_reported(torch):
    # the slip the rule is for: no subclass sums the trees, so argmax over the classes of [trees, classes, batch]
    # is 2-d, and index_select raises
    wrong = TREE_AGGREGATION.replace("    def aggregation(self, x):\n        output", "    def summed(self, x):\n        output")
    wrong = wrong.replace("    def aggregation(self, x):\n        return torch.sigmoid", "    def summed(self, x):\n        return torch.sigmoid")
    assert wrong.count("def aggregation") == 1
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        run_snippet(wrong)
    assert "GL001" in codes(wrong)


# A structure model's constraint featurizer bins the pairwise distances of the selected tokens into a
# [n_token, n_token] map: rows and columns come from one list of distinct token ids, one copied by
# repeat_interleave and the other by repeat, so the two together name each (row, column) pair once.
DISTANCE_BINS = '''import torch


class SubStructureFeaturizer:
    def __init__(self, coords, distance_bins):
        self.coords = coords
        self.distance_bins = distance_bins

    def get_distance_feature(self, selected_token_mask):
        n_tokens = self.coords.shape[0]
        distance_feature = torch.full((n_tokens, n_tokens), fill_value=-1, dtype=torch.long)
        selected_tokens = torch.nonzero(selected_token_mask).squeeze(-1)
        selected_coords = self.coords[selected_tokens]
        pairwise_distances = torch.cdist(selected_coords, selected_coords)
        binned_distances = torch.bucketize(pairwise_distances, self.distance_bins, right=True) - 1
        valid_bins = binned_distances > 0
        rows = selected_tokens.repeat_interleave(len(selected_tokens))
        cols = selected_tokens.repeat(len(selected_tokens))
        valid_mask = valid_bins.flatten()
        valid_rows = rows[valid_mask]
        valid_cols = cols[valid_mask]
        valid_bins = binned_distances.flatten()[valid_mask]
        distance_feature[valid_rows, valid_cols] = valid_bins
        distance_feature[valid_cols, valid_rows] = valid_bins  # symmetric
        return distance_feature


if __name__ == "__main__":
    coords = torch.tensor([[0.0, 0, 0], [1.0, 0, 0], [9.0, 0, 0], [0.0, 3.0, 0], [5.0, 5.0, 0]])
    bins = torch.tensor([0.0, 0.5, 2.0, 4.0, 8.0, 100.0])
    mask = torch.tensor([True, True, False, True, True])
    feature = SubStructureFeaturizer(coords, bins).get_distance_feature(mask)
    sel = mask.nonzero().squeeze(-1).tolist()
    dist = torch.cdist(coords, coords)
    for i in sel:
        for j in sel:
            b = int(torch.bucketize(dist[i, j], bins, right=True)) - 1
            assert feature[i, j].item() == (b if b > 0 else -1)
'''


def test_rows_and_columns_of_a_cartesian_product_name_each_pair_once(torch):
    run_snippet(DISTANCE_BINS)
    assert codes(DISTANCE_BINS) == []


def test_columns_copied_the_same_way_as_the_rows_are_still_reported(torch):
    # the slip the rule is for: both lists copied by repeat_interleave pair each token with itself n times, so
    # the diagonal is written n times with n different bins and only one is kept
    wrong = DISTANCE_BINS.replace("cols = selected_tokens.repeat(len(selected_tokens))",
                                  "cols = selected_tokens.repeat_interleave(len(selected_tokens))")
    assert wrong != DISTANCE_BINS
    with pytest.raises(AssertionError):
        run_snippet(wrong)
    assert codes(wrong) == ["GL013", "GL013"]


# The same featurizer encodes each constraint by a mode from its config: "one_hot" for the substructure's
# integer bins, "continuous" for the contact and pocket distances, which are float32. A contact featurizer
# forwards its own `feature_type` to the shared `encode`, and the configs give contacts "continuous".
ENCODE_MODES = '''import torch
import torch.nn.functional as F


class ConstraintFeaturizer:
    def __init__(self, n_token, pad_value: float = 0):
        self.n_token = n_token
        self.pad_value = pad_value

    @staticmethod
    def one_hot_encoder(feature: torch.Tensor, num_classes: int):
        pad_mask = feature == -1
        feature = torch.where(pad_mask, torch.zeros_like(feature), feature)
        one_hot = F.one_hot(feature, num_classes=num_classes).float()
        one_hot[pad_mask] = 0.0
        return one_hot

    def encode(self, feature: torch.Tensor, feature_type: str, **kwargs):
        if feature_type == "one_hot":
            return ConstraintFeaturizer.one_hot_encoder(feature, num_classes=kwargs.get("num_classes", -1))
        elif feature_type == "continuous":
            return feature
        else:
            raise RuntimeError(f"Invalid feature_type: {feature_type}")


class ContactFeaturizer(ConstraintFeaturizer):
    def generate(self, feature_type: str, size: int):
        if size == 0:
            return self.encode(
                torch.full((self.n_token, self.n_token, 2), fill_value=self.pad_value, dtype=torch.float32),
                feature_type=feature_type,
            )
        contact = torch.zeros((self.n_token, self.n_token, 2), dtype=torch.float32)
        contact[0, 1] = torch.tensor([4.0, 12.0])
        return self.encode(feature=contact, feature_type=feature_type)


if __name__ == "__main__":
    config = {"contact": {"feature_type": "continuous"}}
    featurizer = ContactFeaturizer(4)
    out = featurizer.generate(config["contact"].get("feature_type", "continuous"), size=1)
    assert out.dtype == torch.float32 and out[0, 1].tolist() == [4.0, 12.0]
    assert featurizer.generate("continuous", size=0).shape == (4, 4, 2)
    bins = torch.tensor([[-1, 2], [0, -1]])
    assert featurizer.encode(bins, "one_hot", num_classes=3)[0, 1].tolist() == [0.0, 0.0, 1.0]
'''


def test_float_values_under_a_mode_the_caller_does_not_name_are_not_one_hot_ids(torch):
    run_snippet(ENCODE_MODES)
    assert codes(ENCODE_MODES) == []


def test_float_values_with_the_one_hot_mode_named_are_still_reported(torch):
    # the slip the rule is for: the caller names the one-hot mode for the float distances, and one_hot raises
    wrong = ENCODE_MODES.replace('''        return self.encode(feature=contact, feature_type=feature_type)''',
                                 '''        return self.encode(feature=contact, feature_type="one_hot", num_classes=3)''')
    assert wrong != ENCODE_MODES
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL008"]


# A classifier-free-guidance embedder (torch-molecule's ClusterContinuousEmbedder) drops the condition of the
# rows in `drop_ids`, a mask made on every path by a comparison (`force_drop_ids == 1`, `torch.rand(n) < p`) or
# `torch.logical_or` of two: `embeddings[drop_ids] += w` adds once to each selected row, whatever the name says.
DROP_MASK_EMBEDDER = '''
import torch
from torch import nn


class ClusterContinuousEmbedder(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_prob):
        super().__init__()
        if dropout_prob > 0:
            self.embedding_drop = nn.Embedding(1, hidden_size)
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden_size), nn.Softmax(dim=1))
        self.hidden_size = hidden_size
        self.dropout_prob = dropout_prob

    def forward(self, labels, train, force_drop_ids=None):
        use_dropout = self.dropout_prob > 0
        if force_drop_ids is not None:
            drop_ids = force_drop_ids == 1
        else:
            drop_ids = None
        if not use_dropout:
            drop_ids = None
        if train and use_dropout:
            drop_ids_rand = torch.rand(labels.shape[0], device=labels.device) < self.dropout_prob
            if force_drop_ids is not None:
                drop_ids = torch.logical_or(drop_ids, drop_ids_rand)
            else:
                drop_ids = drop_ids_rand
        if drop_ids is not None:
            embeddings = torch.zeros((labels.shape[0], self.hidden_size), device=labels.device)
            embeddings[~drop_ids] = self.mlp(labels[~drop_ids])
            embeddings[drop_ids] += self.embedding_drop.weight[0]
        else:
            embeddings = self.mlp(labels)
        return embeddings


if __name__ == "__main__":
    torch.manual_seed(0)
    embedder = ClusterContinuousEmbedder(3, 4, dropout_prob=0.1)
    labels = torch.randn(5, 3)
    force = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0])
    out = embedder(labels, train=False, force_drop_ids=force)
    assert torch.allclose(out[0], embedder.embedding_drop.weight[0])
    assert torch.allclose(out[2], embedder.embedding_drop.weight[0])
    assert torch.allclose(out[1], embedder.mlp(labels[1:2])[0])
'''


def test_a_mask_named_drop_ids_is_not_repeating_ids(torch):
    run_snippet(DROP_MASK_EMBEDDER)
    assert codes(DROP_MASK_EMBEDDER) == []


def test_drop_ids_taken_as_row_numbers_are_still_reported(torch):
    # the slip the rule is for: the 0/1 flags cast to long index rows 0 and 1, each once, however many rows
    # are dropped: row 0 gets the drop embedding added once for three dropped rows
    wrong = DROP_MASK_EMBEDDER.replace("drop_ids = force_drop_ids == 1", "drop_ids = force_drop_ids.long()")
    wrong = wrong.replace("            embeddings[~drop_ids] = self.mlp(labels[~drop_ids])\n", "")
    assert wrong != DROP_MASK_EMBEDDER
    program = wrong.split("if __name__")[0]
    scope = run_snippet(program)
    embedder = scope["ClusterContinuousEmbedder"](3, 4, dropout_prob=0.1)
    force = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
    out = embedder(torch.randn(5, 3), train=False, force_drop_ids=force)
    weight = embedder.embedding_drop.weight[0]
    assert torch.allclose(out[1], weight) and torch.allclose(out[0], weight)  # added once, not three times
    assert codes(wrong) == ["GL013"]


# A Carlini-Wagner attack (deeprobust's CarliniL2) compares a score row with a label, or a best class (a 0-d
# entry of `bestscore`, made from `imgs.shape[0]` entries) with a float label: `sum(x.shape) != 0` is 0 for the
# 0-d entry, so `x[y]` with the float label never runs.
CW_COMPARE = '''
import torch


class CarliniL2:
    def __init__(self, model, targeted=False, confidence=0.0):
        self.model = model
        self.TARGETED = targeted
        self.CONFIDENCE = confidence

    def generate(self, imgs, tlabs):
        batch_size = imgs.shape[0]

        def compare(x, y):
            if sum(x.shape) != 0:
                x = x.clone()
                if self.TARGETED:
                    x[y] -= self.CONFIDENCE
                else:
                    x[y] += self.CONFIDENCE
                x = torch.argmax(x)
            if self.TARGETED:
                return x == y
            return x != y

        bestscore = -1 * torch.ones(batch_size, dtype=torch.float32)
        scores = self.model(imgs)
        for e, sc in enumerate(scores):
            lab = torch.argmax(tlabs[e])
            if compare(sc, lab):
                bestscore[e] = torch.argmax(sc)
        success = []
        for e in range(batch_size):
            success.append(bool(compare(bestscore[e], torch.argmax(tlabs[e]).float())) and bestscore[e] != -1)
        return bestscore, success


if __name__ == "__main__":
    attack = CarliniL2(lambda x: x.flatten(1)[:, :10])
    imgs = torch.eye(10)[[3, 4, 7]]
    tlabs = torch.eye(10)[[3, 2, 7]]
    best, success = attack.generate(imgs, tlabs)
    assert best.tolist() == [-1.0, 4.0, -1.0] and success == [False, True, False]
'''


def test_a_shape_guard_that_a_zero_dim_entry_fails_keeps_its_body_quiet(torch):
    run_snippet(CW_COMPARE)
    assert codes(CW_COMPARE) == []


def test_a_float_label_of_a_whole_row_is_still_reported(torch):
    # the slip the rule is for: the whole [batch] row passes the guard, and its float label index raises
    wrong = CW_COMPARE.replace("compare(bestscore[e], ", "compare(bestscore, ")
    assert wrong != CW_COMPARE
    with pytest.raises(IndexError, match="tensors used as indices"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL008", "GL008"]


# cornac's RPG builds its item graph from per-digit code similarities: `codes = self.item_id2tokens[:n_items] -
# self.offsets` subtracts the [n_codebook] offsets from the [n_items, n_codebook] token table (filled by
# set_item_tokens), and `codes[start:end][:, d]` picks digit d of a chunk of items. With the table unknown the
# difference is [n_codebook] only as a guess; the chunk `codes[start:end]` kept that rank as a fact.
RPG_ADJACENCY = '''
import torch
from torch import nn


class RPG(nn.Module):
    def __init__(self, n_codebook=3, codebook_size=4, d_model=8):
        super().__init__()
        self.n_codebook = n_codebook
        self.codebook_size = codebook_size
        self.wte = nn.Embedding(n_codebook * codebook_size + 2, d_model)
        offsets = self.codebook_size * torch.arange(self.n_codebook, dtype=torch.long) + 1
        self.register_buffer("offsets", offsets)
        self.register_buffer("item_id2tokens", torch.zeros(1, self.n_codebook, dtype=torch.long))

    def set_item_tokens(self, sid_table):
        codes = torch.as_tensor(sid_table, dtype=torch.long)
        tokens = codes + self.offsets
        pad_row = torch.zeros(1, self.n_codebook, dtype=torch.long)
        self.item_id2tokens = torch.cat([tokens, pad_row], dim=0)

    @torch.no_grad()
    def build_adjacency(self, n_items, edges, chunk_size=2):
        token_emb = self.wte.weight[1:-1].view(self.n_codebook, self.codebook_size, -1)
        token_sims = torch.bmm(token_emb, token_emb.transpose(1, 2))
        codes = self.item_id2tokens[:n_items] - self.offsets
        k = min(int(edges), n_items)
        adj = torch.empty(n_items, k, dtype=torch.long)
        for start in range(0, n_items, chunk_size):
            end = min(start + chunk_size, n_items)
            ci = codes[start:end]
            sim = torch.zeros(end - start, n_items)
            for d in range(self.n_codebook):
                sim += token_sims[d][ci[:, d]][:, codes[:, d]]
            adj[start:end] = sim.topk(k, dim=1).indices
        return adj


if __name__ == "__main__":
    model = RPG()
    model.set_item_tokens([[0, 1, 2], [3, 0, 1], [2, 2, 2], [1, 3, 0], [0, 0, 3]])
    assert model.build_adjacency(5, 2).shape == (5, 2)
'''


def test_a_chunk_of_a_difference_with_an_unknown_table_keeps_its_rank_a_guess(torch):
    run_snippet(RPG_ADJACENCY)
    assert codes(RPG_ADJACENCY) == []


def test_a_chunk_of_the_one_dim_offsets_is_still_reported(torch):
    # the slip the rule is for: the chunk taken from the [n_codebook] offsets themselves has one dim
    wrong = RPG_ADJACENCY.replace("ci = codes[start:end]", "ci = self.offsets[start:end]")
    assert wrong != RPG_ADJACENCY
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL001"]


# hivemind's SwitchMixtureOfExperts drops whole grid columns with `torch.where(dropout_mask, grid_score,
# torch.full((1,), -inf))`: the mask is [grid_size], the scores [batch, grid_size] from the gate (a layer the
# analysis does not know), so the result is [batch, grid_size] and compute_expert_scores picks
# `dim_scores[flat_batch_indices, dim_indices]`. The where's rank came from the mask and the fill alone, as a fact.
SWITCH_MOE = '''
import torch
from torch import nn


class SwitchMoE(nn.Module):
    def __init__(self, in_features, grid_size, grid_dropout=1.0, gate="Linear"):
        super().__init__()
        self.proj = getattr(nn, gate)(in_features, sum(grid_size))
        self.grid_size = grid_size
        self.grid_dropout = grid_dropout

    def forward(self, input, chosen):
        grid_scores = self.proj(input).split_with_sizes(self.grid_size, dim=-1)
        grid_dropout_masks = (
            torch.rand(size=(dim_size,), dtype=input.dtype, device=input.device) < self.grid_dropout
            for dim_size in self.grid_size
        )
        grid_scores_dropout = [
            torch.where(mask, grid_score, torch.full((1,), float("-inf"), dtype=grid_score.dtype))
            for grid_score, mask in zip(grid_scores, grid_dropout_masks)
        ]
        grid_softmax = [torch.softmax(grid_score, dim=-1) for grid_score in grid_scores_dropout]
        return self.compute_expert_scores(grid_softmax, chosen)

    def compute_expert_scores(self, grid_probs, batch_experts):
        expert_counts = list(map(len, batch_experts))
        total_num_experts = sum(expert_counts)
        expert_index_in_batch = torch.arange(total_num_experts)
        expert_strides = torch.cumsum(torch.as_tensor([0] + expert_counts), dim=-1)[:-1]
        flat_batch_indices = (expert_index_in_batch >= expert_strides[:, None]).to(torch.int32).sum(0) - 1
        flat_experts = [expert for row in batch_experts for expert in row]
        grid_indices = torch.zeros([len(flat_experts), len(grid_probs)], dtype=torch.int64)
        for i, expert in enumerate(flat_experts):
            grid_indices[i] = torch.as_tensor(expert, dtype=grid_indices.dtype)
        scores_per_dim = [
            dim_scores[flat_batch_indices, dim_indices]
            for dim_scores, dim_indices in zip(grid_probs, grid_indices.T)
        ]
        return torch.prod(torch.stack(scores_per_dim, dim=0), dim=0)


if __name__ == "__main__":
    moe = SwitchMoE(8, [3, 4])
    chosen = [[(0, 1), (2, 3)], [(1, 0)]]
    assert moe(torch.randn(2, 8), chosen).shape == (3,)
'''


def test_a_where_with_an_unknown_operand_keeps_its_rank_a_guess(torch):
    run_snippet(SWITCH_MOE)
    assert codes(SWITCH_MOE) == []


def test_a_where_of_the_mask_alone_is_still_reported(torch):
    # the slip the rule is for: the mask kept where the gate's scores were meant, one dim
    wrong = SWITCH_MOE.replace("torch.where(mask, grid_score, ", "torch.where(mask, mask.float(), ")
    assert wrong != SWITCH_MOE
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL001"]


# msclap's CLAPWrapper.default_collate (torch's collate, copied) returns `torch.stack(batch)` for a batch of
# tensors before its `elif isinstance(elem, collections.abc.Mapping):` branch, which indexes each sample with
# the keys of the first; preprocess_audio hands it the float32 clips of torch.FloatTensor. A tensor was known
# not to be a float, an int or a str, but `Mapping`, an abstract class, decided nothing, so the dict branch ran
# with the clip's float items as keys.
CLAP_COLLATE = '''
import collections

import torch
from torch import nn


class CLAPWrapper:
    def __init__(self, duration=4, vocab=11, dim=6):
        self.duration = duration
        self.clap = nn.Linear(duration, dim)
        self.wte = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def default_collate(self, batch):
        elem = batch[0]
        if isinstance(elem, torch.Tensor):
            return torch.stack(batch, 0)
        elif isinstance(elem, float):
            return torch.tensor(batch, dtype=torch.float64)
        elif isinstance(elem, int):
            return torch.tensor(batch)
        elif isinstance(elem, str):
            return batch
        elif isinstance(elem, collections.abc.Mapping):
            return {key: self.default_collate([d[key] for d in batch]) for key in elem}
        elif isinstance(elem, collections.abc.Sequence):
            return [self.default_collate(samples) for samples in zip(*batch)]
        raise TypeError(type(elem))

    def load_audio_into_tensor(self, audio, audio_duration):
        audio_time_series = audio.reshape(-1)[:audio_duration]
        return torch.FloatTensor(audio_time_series)

    def preprocess_audio(self, audio_files):
        audio_tensors = []
        for audio_file in audio_files:
            audio_tensor = self.load_audio_into_tensor(audio_file, self.duration)
            audio_tensors.append(audio_tensor.reshape(1, -1))
        return self.default_collate(audio_tensors)

    def generate_caption(self, audio_files, beam_size=3, entry_length=4):
        audio_tensors = self.preprocess_audio(audio_files)
        prefix = self.clap(audio_tensors.squeeze(1))
        return [self._generate_beam(prefix[i][None, None], beam_size, entry_length) for i in range(len(audio_tensors))]

    @torch.no_grad()
    def _generate_beam(self, embed, beam_size, entry_length, temperature=1.0, stop_token_index=0):
        generated = embed.expand(beam_size, -1, -1)
        is_stopped = torch.zeros(beam_size, dtype=torch.bool)
        scores = torch.zeros(beam_size)
        for i in range(entry_length):
            logits = self.head(generated)[:, -1, :] / (temperature if temperature > 0 else 1.0)
            logits = logits.softmax(-1).log()
            scores, next_tokens = (scores[:, None] + logits).max(-1)
            next_token_embed = self.wte(next_tokens).view(generated.shape[0], 1, -1)
            generated = torch.cat((generated, next_token_embed), dim=1)
            is_stopped = is_stopped + next_tokens.eq(stop_token_index)
        return scores.argsort(descending=True)


if __name__ == "__main__":
    wrapper = CLAPWrapper()
    captions = wrapper.generate_caption([torch.randn(1, 8), torch.randn(2, 4)])
    assert len(captions) == 2 and captions[0].shape == (3,)
'''


def test_a_mapping_branch_never_runs_for_a_tensor(torch):
    run_snippet(CLAP_COLLATE)
    assert codes(CLAP_COLLATE) == []


def test_an_iterable_branch_that_a_tensor_takes_is_still_reported(torch):
    # the slip the rule is for: without its own branch a tensor is an Iterable, and its float items index
    wrong = CLAP_COLLATE.replace("""        if isinstance(elem, torch.Tensor):
            return torch.stack(batch, 0)
        elif isinstance(elem, float):""", """        if isinstance(elem, float):""").replace("collections.abc.Mapping", "collections.abc.Iterable")
    assert wrong != CLAP_COLLATE
    with pytest.raises(IndexError, match="tensors used as indices"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL008"]


# kraken's layers resize their outputs: `idx = torch.tensor([x for x in range(old) if x not in del_indices])`
# keeps every output but the ones the caller deletes, so the list is empty only when the caller deletes them all.
# An item's own test (`if e - s <= max_len`) can fail on every item of a batch; a list of deletions is a choice.
RESIZE_OUTPUTS = '''
import torch
from torch import nn


class LinSoftmax(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        self.lin = nn.Linear(input_size, output_size)

    def resize(self, output_size, del_indices=None):
        if not del_indices:
            del_indices = []
        old_shape = self.lin.weight.size(0)
        idx = torch.tensor([x for x in range(old_shape) if x not in del_indices], device=self.lin.weight.device)
        weight = self.lin.weight.index_select(0, idx)
        rweight = torch.zeros((output_size - weight.size(0), weight.size(1)))
        weight = torch.cat([weight, rweight])
        bias = self.lin.bias.index_select(0, idx)
        bias = torch.cat([bias, torch.zeros(output_size - bias.size(0))])
        self.lin = nn.Linear(weight.size(1), output_size)
        self.lin.weight = nn.Parameter(weight)
        self.lin.bias = nn.Parameter(bias)


if __name__ == "__main__":
    layer = LinSoftmax(4, 6)
    kept = layer.lin.weight[[0, 2, 3, 5]].detach().clone()
    layer.resize(7, del_indices=[1, 4])
    assert torch.equal(layer.lin.weight[:4], kept) and layer.lin.weight.shape == (7, 4)
'''


def test_a_list_of_all_but_the_deleted_items_is_not_empty_by_chance(torch):
    run_snippet(RESIZE_OUTPUTS)
    assert codes(RESIZE_OUTPUTS) == []


def test_a_list_filtered_by_each_items_own_test_is_still_reported(torch):
    # the slip the rule is for: outputs kept by a test of their own weights, and no output passes it
    wrong = RESIZE_OUTPUTS.replace("if x not in del_indices]", "if self.lin.weight[x].abs().max() > 10]")
    assert wrong != RESIZE_OUTPUTS
    with pytest.raises(RuntimeError, match="Expected dtype int32 or int64 for index"):
        run_snippet(wrong)
    assert codes(wrong) == ["GL008", "GL008"]


# mlcolvar's compute_distances_matrix (and apply_cutoff) keep the diagonal out of a batch of distance maps with
# `mask_diag = ~torch.eye(n_atoms, dtype=bool)` tiled over the batch, then `dist[mask_diag] = torch.sqrt(dist[mask_diag])`.
# torch reads the builtin `bool` as torch.bool, so the tiled index is a mask and names every entry once; the
# keyword was not read as a dtype, so the mask had none and tile()'s copies were taken for repeating ids.
DISTANCE_MAP = '''
import torch


def sanitize_positions_shape(pos: torch.Tensor, n_atoms: int):
    if len(pos.shape) < 3:
        pos = pos.reshape(-1, n_atoms, 3)
    batch_size = pos.shape[0]
    return pos, batch_size


def compute_distances_matrix(pos: torch.Tensor, n_atoms: int, vector: bool = False) -> torch.Tensor:
    pos, batch_size = sanitize_positions_shape(pos, n_atoms)
    pos = torch.transpose(pos, 1, 2).reshape((batch_size, 3, n_atoms))
    pos_expanded = torch.tile(pos, (1, 1, n_atoms)).reshape(batch_size, 3, n_atoms, n_atoms)
    dist_components = pos_expanded - torch.transpose(pos_expanded, -2, -1)
    if vector:
        return dist_components
    else:
        mask_diag = ~torch.eye(n_atoms, dtype=bool)
        mask_diag = torch.tile(mask_diag, (batch_size, 1, 1))
        dist = torch.sum(torch.pow(dist_components, 2), 1)
        dist[mask_diag] = torch.sqrt(dist[mask_diag])
        return dist


def apply_cutoff(x: torch.Tensor, cutoff: float, switching_function) -> torch.Tensor:
    x_clone = torch.clone(x)
    batch_size = x.shape[0]
    mask_diag = ~torch.eye(x.shape[-1], dtype=bool)
    mask_diag = torch.tile(mask_diag, (batch_size, 1, 1))
    x_clone[mask_diag] = switching_function(x_clone[mask_diag])
    return x_clone


if __name__ == "__main__":
    pos = torch.randn(2, 4 * 3)
    dist = compute_distances_matrix(pos, 4)
    p = pos.reshape(2, 4, 3)
    assert torch.allclose(dist, torch.cdist(p, p), atol=1e-5)
    adj = apply_cutoff(dist, 1.0, lambda d: 1 / (1 + d))
    assert torch.allclose(adj.diagonal(dim1=-2, dim2=-1), torch.zeros(2, 4))
'''

# the slip the rule is for: tile() copies atom ids (not a mask) over the batch, and the write keeps one per atom
TILED_ATOM_IDS = '''
import torch


def count_atoms(pos: torch.Tensor, n_atoms: int) -> torch.Tensor:
    batch_size = pos.shape[0]
    counts = torch.zeros(n_atoms)
    atom_ids = torch.tile(torch.arange(n_atoms), (batch_size,))
    counts[atom_ids] = counts[atom_ids] + 1
    return counts


if __name__ == "__main__":
    COUNTS = count_atoms(torch.randn(2, 4, 3), 4)
'''


def test_a_builtin_bool_dtype_makes_a_mask(torch):
    run_snippet(DISTANCE_MAP)
    assert codes(DISTANCE_MAP) == []


def test_tiled_ids_written_back_are_still_reported(torch):
    assert run_snippet(TILED_ATOM_IDS)["COUNTS"].tolist() == [1.0] * 4  # two frames, each atom counted once
    assert codes(TILED_ATOM_IDS) == ["GL013"]


# unsloth-zoo's fused preference loss (`_sliced_backward`) sets the target logit's gradient slice by slice with
# `grad_logits.scatter_(-1, index, torch.where(inside, target_value, grad_logits.gather(-1, index)))`, the index
# `target.clamp(...).unsqueeze(-1)`: one entry per row along the scatter dim, so no two entries name one position
# (a label outside the slice writes back what it read). The labels' name made the index repeating ids.
SLICED_TARGET_GRAD = '''
import torch


@torch.no_grad()
def sliced_backward(hidden, weight, labels, lse, logps, slice_size=3):
    n_rows = hidden.shape[0]
    vocab_size, hidden_size = weight.shape
    grad_hidden = torch.zeros((n_rows, hidden_size))
    for first in range(0, vocab_size, slice_size):
        last = min(first + slice_size, vocab_size)
        weight_slice = weight[first:last]
        logits = hidden @ weight_slice.t()
        grad_logits = (logits - lse.unsqueeze(-1)).exp_()
        grad_logits.neg_()
        target = labels - first
        inside = ((target >= 0) & (target < last - first)).unsqueeze(-1)
        index = target.clamp(0, last - first - 1).unsqueeze(-1)
        target_value = (1 - logps.exp()).unsqueeze(-1)
        grad_logits.scatter_(-1, index, torch.where(inside, target_value, grad_logits.gather(-1, index)))
        grad_hidden += grad_logits @ weight_slice
    return grad_hidden


if __name__ == "__main__":
    hidden, weight = torch.randn(4, 5), torch.randn(7, 5)
    labels = torch.tensor([1, 1, 6, 3])
    with torch.enable_grad():
        h = hidden.clone().requires_grad_()
        logps = torch.log_softmax(h @ weight.t(), -1).gather(-1, labels[:, None]).squeeze(-1)
        logps.sum().backward()
    lse = torch.logsumexp(hidden @ weight.t(), -1)
    assert torch.allclose(sliced_backward(hidden, weight, labels, lse, logps.detach()), h.grad, atol=1e-5)
'''

# the slip the rule is for: a histogram of the labels kept in one row, read and written back along it
LABEL_HISTOGRAM_ROW = '''
import torch


def label_histogram(labels, vocab_size):
    hist = torch.zeros(1, vocab_size)
    index = labels.view(1, -1)
    hist.scatter_(-1, index, hist.gather(-1, index) + 1)
    return hist


if __name__ == "__main__":
    HIST = label_histogram(torch.tensor([1, 1, 6, 3]), 7)
'''


def test_a_scatter_index_of_one_entry_per_row_is_not_repeating(torch):
    run_snippet(SLICED_TARGET_GRAD)
    assert codes(SLICED_TARGET_GRAD) == []


def test_repeated_labels_along_the_scatter_dim_are_still_reported(torch):
    hist = run_snippet(LABEL_HISTOGRAM_ROW)["HIST"]
    assert hist[0, 1].item() == 1.0  # label 1 twice, counted once
    assert codes(LABEL_HISTOGRAM_ROW) == ["GL013"]


# recpack's tests of its BPR-max and TOP1-max losses compute the expected value by hand for one negative per
# positive: `neg = torch.FloatTensor([[0.1, 0.3, 0.6]])` and `s = neg.softmax(dim=0)`, then the same data
# transposed, `[[...]]).t()` and `softmax(dim=1)`. The loss transposes a wide input and normalises over the
# negatives, here one each, so every weight is 1.0 there too: the size-1 dim is the count of rows the test
# wrote, the data's, and the softmax over it is the expected value (over the other dim the test fails).
ONE_NEGATIVE_EXPECTED = '''
import math

import torch


def bpr_max_loss(positive_scores, negative_scores, reg=1.0):
    size = positive_scores.size()
    if len(size) == 2 and size[0] < size[1]:
        positive_scores = positive_scores.t()
        negative_scores = negative_scores.t()
    weights = torch.softmax(negative_scores, dim=1)
    score_diff = weights * torch.sigmoid(positive_scores - negative_scores)
    norm_penalty = weights * negative_scores ** 2
    return (-torch.log(score_diff.sum(dim=1)) + reg * norm_penalty.sum(dim=1)).mean()


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def test_bpr_max_loss_2d_1dim():
    pos_sim_as_tensor = torch.FloatTensor([[0.6, 0.3, 0.1]])
    neg_sim_as_tensor = torch.FloatTensor([[0.1, 0.3, 0.6]])
    loss = bpr_max_loss(pos_sim_as_tensor, neg_sim_as_tensor, reg=2)
    s = neg_sim_as_tensor.softmax(dim=0)
    norm_penalty = sum(s[0, j] * neg_sim_as_tensor[0, j] ** 2 for j in range(3)) / 3
    expected = -(math.log(s[0, 0] * sigmoid(0.5)) + math.log(s[0, 1] * sigmoid(0))
                 + math.log(s[0, 2] * sigmoid(-0.5))) / 3 + 2 * norm_penalty
    assert abs(loss.item() - float(expected)) < 1e-5

    pos_sim_as_tensor = torch.FloatTensor([[0.6, 0.3, 0.1]]).t()
    neg_sim_as_tensor = torch.FloatTensor([[0.1, 0.3, 0.6]]).t()
    loss = bpr_max_loss(pos_sim_as_tensor, neg_sim_as_tensor, reg=2)
    s = neg_sim_as_tensor.softmax(dim=1)
    norm_penalty = sum(s[i, 0] * neg_sim_as_tensor[i, 0] ** 2 for i in range(3)) / 3
    expected = -(math.log(s[0, 0] * sigmoid(0.5)) + math.log(s[1, 0] * sigmoid(0))
                 + math.log(s[2, 0] * sigmoid(-0.5))) / 3 + 2 * norm_penalty
    assert abs(loss.item() - float(expected)) < 1e-5


if __name__ == "__main__":
    test_bpr_max_loss_2d_1dim()
'''

# the slip the rule is for: an attention score head `nn.Linear(d, 1)` normalised over its own size-1 dim
SCORE_HEAD_SOFTMAX = '''
import torch
import torch.nn as nn


class NegativePooling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, negatives):
        weights = torch.softmax(self.score(negatives), dim=-1)
        return (weights * negatives).sum(dim=1)


if __name__ == "__main__":
    POOL = NegativePooling(4)
    WEIGHTS = torch.softmax(POOL.score(torch.randn(2, 3, 4)), dim=-1)
'''


def test_a_softmax_over_the_rows_a_literal_wrote_is_the_data(torch):
    run_snippet(ONE_NEGATIVE_EXPECTED)
    assert codes(ONE_NEGATIVE_EXPECTED) == []


def test_a_softmax_over_a_score_heads_size_one_dim_is_still_reported(torch):
    weights = run_snippet(SCORE_HEAD_SOFTMAX)["WEIGHTS"]
    assert torch.equal(weights, torch.ones(2, 3, 1))  # every weight 1.0: the pooling is a plain sum
    assert codes(SCORE_HEAD_SOFTMAX) == ["GL018"]


# super-image's MASA transfer (models/masa/modeling_masa.py): a batch index select whose trailing comment
# chains two arrows, the second typed with a space, `[N, Hi, Wi] -> [N, 1, Hi*Wi] - > [N, C*k*k, Hi*Wi]`.
# The expand on the line gives the index every channel of the unfolded features; the last arrow's shape
# is the result, not the one in the middle of the chain.
CHAINED_ARROW_COMMENT = '''
import torch
from torch.nn import functional


class Transfer(torch.nn.Module):
    def bis(self, input, dim, index):
        # batch index select
        # input: [N, C*k*k, H*W]
        # dim: scalar > 0
        # index: [N, Hi, Wi]
        views = [input.size(0)] + [1 if i != dim else -1 for i in range(1, len(input.size()))]  # views = [N, 1, -1]
        expanse = list(input.size())
        expanse[0] = -1
        expanse[dim] = -1  # expanse = [-1, C*k*k, -1]
        index = index.clone().view(views).expand(expanse)  # [N, Hi, Wi] -> [N, 1, Hi*Wi] - > [N, C*k*k, Hi*Wi]
        return torch.gather(input, dim, index)  # [N, C*k*k, Hi*Wi]

    def forward(self, fea, index, ks=3):
        fea_unfold = functional.unfold(fea, kernel_size=(ks, ks), padding=0)  # [N, C*k*k, H*W]
        return self.bis(fea_unfold, 2, index)


if __name__ == "__main__":
    FEA = torch.randn(2, 4, 6, 6)
    INDEX = torch.randint(0, 16, (2, 3, 3))
    OUT = Transfer()(FEA, INDEX)
    UNFOLDED = functional.unfold(FEA, kernel_size=(3, 3))
'''

# the slip the rule is for: the same select with the index only viewed to [N, 1, Hi*Wi], never expanded
CHAINED_ARROW_NOT_EXPANDED = '''
import torch
from torch.nn import functional


class Transfer(torch.nn.Module):
    def bis(self, input, dim, index):
        # input: [N, C*k*k, H*W]
        # index: [N, Hi, Wi]
        index = index.clone().view(index.size(0), 1, -1)  # [N, Hi, Wi] -> [N, 1, Hi*Wi]
        return torch.gather(input, dim, index)

    def forward(self, fea, index, ks=3):
        fea_unfold = functional.unfold(fea, kernel_size=(ks, ks), padding=0)  # [N, C*k*k, H*W]
        return self.bis(fea_unfold, 2, index)


if __name__ == "__main__":
    OUT = Transfer()(torch.randn(2, 4, 6, 6), torch.randint(0, 16, (2, 3, 3)))
'''


def test_the_last_arrow_of_a_chained_shape_comment_gives_the_result(torch):
    scope = run_snippet(CHAINED_ARROW_COMMENT)
    out, unfolded, index = scope["OUT"], scope["UNFOLDED"], scope["INDEX"]
    assert out.shape == (2, 36, 9)  # every channel read
    assert torch.equal(out, torch.stack([unfolded[b][:, index[b].flatten()] for b in range(2)]))
    assert codes(CHAINED_ARROW_COMMENT) == []


def test_a_gather_index_only_viewed_to_one_channel_is_still_reported(torch):
    assert run_snippet(CHAINED_ARROW_NOT_EXPANDED)["OUT"].shape == (2, 1, 9)  # channel 0 alone
    assert codes(CHAINED_ARROW_NOT_EXPANDED) == ["GL005"]


# outetts's vLLM penalty hook (models/vllm_model.py, vLLM's own apply_penalties): the repetition penalty
# divides only the positive logits, selected by a key that tests their sign (`logits[logits > 0] /= ...`), and
# multiplies the rest (`logits[logits <= 0] *= ...`): a repeated token falls whatever its logit's sign.
SIGN_SELECTED_PENALTY = '''
import torch


def get_token_bin_counts_and_mask(tokens, vocab_size, num_seqs):
    bin_counts = torch.zeros((num_seqs, vocab_size + 1), dtype=torch.long, device=tokens.device)
    bin_counts.scatter_add_(1, tokens, torch.ones_like(tokens))
    bin_counts = bin_counts[:, :vocab_size]
    return bin_counts, bin_counts > 0


def apply_penalties(logits: torch.Tensor, output_tokens_tensor: torch.Tensor,
                    repetition_penalties: torch.Tensor) -> torch.Tensor:
    num_seqs, vocab_size = logits.shape
    _, rep_mask = get_token_bin_counts_and_mask(output_tokens_tensor, vocab_size, num_seqs)
    repetition_penalties = repetition_penalties.unsqueeze(dim=1).repeat(1, vocab_size)
    logits[logits > 0] /= torch.where(rep_mask, repetition_penalties, 1.0)[logits > 0]
    logits[logits <= 0] *= torch.where(rep_mask, repetition_penalties, 1.0)[logits <= 0]
    return logits


if __name__ == "__main__":
    LOGITS = torch.tensor([[2.0, -2.0, 0.5, -1.0]])
    OUT = apply_penalties(LOGITS.clone(), torch.tensor([[0, 1, 3]]), torch.tensor([1.3]))
'''

# the mistake the rule is for: the repeated tokens' logits divided by a mask of the tokens alone
TOKEN_SELECTED_PENALTY = SIGN_SELECTED_PENALTY.replace(
    "    logits[logits > 0] /= torch.where(rep_mask, repetition_penalties, 1.0)[logits > 0]\n"
    "    logits[logits <= 0] *= torch.where(rep_mask, repetition_penalties, 1.0)[logits <= 0]\n",
    "    logits[rep_mask] /= repetition_penalties[rep_mask]\n")


def test_a_penalty_keyed_by_the_logits_sign_is_not_sign_blind(torch):
    out = run_snippet(SIGN_SELECTED_PENALTY)["OUT"]
    assert torch.allclose(out, torch.tensor([[2.0 / 1.3, -2.0 * 1.3, 0.5, -1.0 * 1.3]]))  # every repeat falls
    assert codes(SIGN_SELECTED_PENALTY) == []


def test_a_penalty_keyed_by_the_tokens_alone_is_still_reported(torch):
    assert TOKEN_SELECTED_PENALTY != SIGN_SELECTED_PENALTY
    out = run_snippet(TOKEN_SELECTED_PENALTY)["OUT"]
    assert out[0, 1] > -2.0  # the repeated token with a negative logit rose
    assert codes(TOKEN_SELECTED_PENALTY) == ["GL022"]


# mira-multiome's label layout (plots/factor_influence_plot.py): a `collections.Counter` named like labels
# counts how often each gene name was met, `encountered_labels[l] += 1` with l one name of the loop. A
# Counter is keyed by the values, never a tensor: each `+=` adds one to one count.
COUNTER_OF_LABELS = '''
import numpy as np
import torch
from collections import Counter


def layout_labels(x, y, label, max_repeats=5):
    num_labels = Counter(label)
    encountered_labels = Counter()
    sort_order = np.argsort(x + y)[::-1]
    label = np.array(label)[sort_order]
    names = []
    for l in label:
        if num_labels[l] > 1:
            encountered_labels[l] += 1
            if encountered_labels[l] <= max_repeats:
                l = l + " ({})".format(encountered_labels[l])
        names.append(l)
    return names


if __name__ == "__main__":
    NAMES = layout_labels(np.array([0.1, 0.5, 0.9]), np.array([0.2, 0.4, 0.8]), ["SOX2", "PAX6", "SOX2"])
'''

# the mistake the rule is for: the counts kept in a tensor, indexed by a tensor of repeating labels
TENSOR_OF_LABEL_COUNTS = '''
import torch


def count_labels(labels: torch.Tensor, num_classes: int):
    encountered_labels = torch.zeros(num_classes, dtype=torch.long)
    encountered_labels[labels] += 1
    return encountered_labels


if __name__ == "__main__":
    COUNTS = count_labels(torch.tensor([2, 0, 2]), 3)
'''


def test_a_counter_named_like_labels_is_no_tensor(torch):
    assert run_snippet(COUNTER_OF_LABELS)["NAMES"] == ["SOX2 (1)", "PAX6", "SOX2 (2)"]  # each met counted
    assert codes(COUNTER_OF_LABELS) == []


def test_a_tensor_of_label_counts_is_still_reported(torch):
    assert run_snippet(TENSOR_OF_LABEL_COUNTS)["COUNTS"].tolist() == [1, 0, 1]  # label 2 counted once of twice
    assert codes(TENSOR_OF_LABEL_COUNTS) == ["GL013"]


# ecco's one-hot of a batch of token ids (lm.py, `_one_hot_batched`): `batch_size, num_tokens =
# token_ids.shape`, then `zeros(batch_size, num_tokens, vocab_size).scatter_(-1, token_ids.unsqueeze(-1), 1.)`.
# `num_tokens` can name a vocabulary, but here it is the ids' own length: the index spans that dim, so its
# values choose along dim -1 only, with vocab_size unknown at the call (`embedding_matrix.shape[0]`).
ONE_HOT_OVER_THE_IDS_LENGTH = '''
import torch


def _one_hot_batched(token_ids: torch.Tensor, vocab_size: int) -> torch.Tensor:
    batch_size, num_tokens = token_ids.shape
    return torch.zeros(batch_size, num_tokens, vocab_size, device=token_ids.device).scatter_(-1, token_ids.unsqueeze(-1), 1.)


class LM:
    def __init__(self, embedding_matrix):
        self.model_embeddings = embedding_matrix

    def _get_embeddings(self, input_ids):
        embedding_matrix = self.model_embeddings
        vocab_size = embedding_matrix.shape[0]
        one_hot_tensor = _one_hot_batched(input_ids, vocab_size)
        token_ids_tensor_one_hot = one_hot_tensor.clone().requires_grad_(True)
        inputs_embeds = torch.matmul(token_ids_tensor_one_hot, embedding_matrix)
        return inputs_embeds, token_ids_tensor_one_hot


if __name__ == "__main__":
    IDS = torch.tensor([[5, 1, 9], [0, 9, 9]])
    EMB, ONE_HOT = LM(torch.randn(12, 4))._get_embeddings(IDS)
'''

# the mistake the rule is for: the same one-hot scattered along the sequence dim (dim 1), not the vocabulary
ONE_HOT_ALONG_THE_SEQUENCE = ONE_HOT_OVER_THE_IDS_LENGTH.replace(
    "batch_size, num_tokens = token_ids.shape", "batch_size, seq_len = token_ids.shape").replace(
    "torch.zeros(batch_size, num_tokens, vocab_size, device=token_ids.device).scatter_(-1,",
    "torch.zeros(batch_size, seq_len, vocab_size, device=token_ids.device).scatter_(1,")


def test_a_vocabulary_like_dim_the_ids_span_is_their_length(torch):
    scope = run_snippet(ONE_HOT_OVER_THE_IDS_LENGTH)
    assert torch.equal(scope["ONE_HOT"], torch.nn.functional.one_hot(scope["IDS"], 12).float())
    assert codes(ONE_HOT_OVER_THE_IDS_LENGTH) == []


def test_a_one_hot_along_the_sequence_dim_is_still_reported(torch):
    assert ONE_HOT_ALONG_THE_SEQUENCE != ONE_HOT_OVER_THE_IDS_LENGTH
    with pytest.raises(RuntimeError, match="out of bounds"):
        run_snippet(ONE_HOT_ALONG_THE_SEQUENCE)
    assert sorted(codes(ONE_HOT_ALONG_THE_SEQUENCE)) == ["GL004", "GL011"]


# torch-pointcloud's box matching (metrics/detection.py, `box_matches`): `best_row` is -1 where a prediction
# has no same-class box, and the rows are read from `torch.cat([gt_rows, gt_rows.new_full((1,), -1)])`, the
# table grown by one -1 entry where it is indexed: -1 reads that appended entry on purpose, giving -1.
PADDING_READS_THE_APPENDED_ENTRY = '''
import torch


def _best_same_class_iou(overlap, labels, other_labels):
    mismatch = labels[:, None] != other_labels[None, :]
    overlap = torch.cat([overlap.masked_fill(mismatch, -1.0), overlap.new_full((overlap.shape[0], 1), -1.0)], dim=1)
    best_iou, best_row = overlap.max(dim=1)
    return best_iou, best_row.masked_fill(best_iou < 0, -1)


def box_matches(overlap, pred_labels, gt_labels, gt_rows):
    best_iou, best_row = _best_same_class_iou(overlap, pred_labels, gt_labels)
    return best_iou, torch.cat([gt_rows, gt_rows.new_full((1,), -1)])[best_row]


if __name__ == "__main__":
    IOU, GT = box_matches(torch.tensor([[0.5, 0.1], [0.3, 0.2]]), torch.tensor([0, 2]), torch.tensor([0, 1]),
                          torch.tensor([4, 7]))
'''

# the mistake the rule is for: the same read of the rows as they are, where -1 silently picks the last box
PADDING_READS_THE_LAST_BOX = PADDING_READS_THE_APPENDED_ENTRY.replace(
    "torch.cat([gt_rows, gt_rows.new_full((1,), -1)])[best_row]", "gt_rows[best_row]")


def test_padding_read_from_a_table_grown_where_it_is_indexed(torch):
    assert run_snippet(PADDING_READS_THE_APPENDED_ENTRY)["GT"].tolist() == [4, -1]  # no box of class 2: -1
    assert codes(PADDING_READS_THE_APPENDED_ENTRY) == []


def test_padding_read_from_the_rows_themselves_is_still_reported(torch):
    assert PADDING_READS_THE_LAST_BOX != PADDING_READS_THE_APPENDED_ENTRY
    assert run_snippet(PADDING_READS_THE_LAST_BOX)["GT"].tolist() == [4, 7]  # -1 read box 7 instead
    assert codes(PADDING_READS_THE_LAST_BOX) == ["GL010"]


# torch-points3d-modern's sparse coordinate lookup (modules/SparseConv3d/nn/native.py, `_coordinate_lookup`,
# its fallback for huge coordinate ranges): the rows of `support` and `query` are numbered by one unique(),
# and `lookup[support_groups] = torch.arange(n)` keeps one support row per group, the table queries read.
# Row numbers are never meant to add up: the table holds a row of each group (here the only one: a sparse
# tensor's coordinates are distinct).
ROW_NUMBER_PER_GROUP = '''
import torch


def _coordinate_lookup(support, query):
    combined = torch.cat((support, query), dim=0)
    _, inverse = torch.unique(combined, dim=0, sorted=True, return_inverse=True)
    support_groups = inverse[: support.shape[0]]
    query_groups = inverse[support.shape[0] :]
    lookup = torch.full((int(inverse.max()) + 1,), -1, dtype=torch.long, device=support.device)
    lookup[support_groups] = torch.arange(support.shape[0], device=support.device)
    return lookup[query_groups]


if __name__ == "__main__":
    SUPPORT = torch.tensor([[0, 1, 2, 3], [0, 1, 2, 4], [1, 0, 0, 0]])
    ROWS = _coordinate_lookup(SUPPORT, torch.tensor([[1, 0, 0, 0], [0, 9, 9, 9], [0, 1, 2, 3]]))
'''

# the mistake the rule is for: each support row's feature written to its group, where features of equal
# coordinates were meant to be summed (voxel pooling): only one of them survives
FEATURE_PER_GROUP = ROW_NUMBER_PER_GROUP.replace(
    "def _coordinate_lookup(support, query):", "def _coordinate_lookup(support, query, features):").replace(
    "lookup = torch.full((int(inverse.max()) + 1,), -1, dtype=torch.long, device=support.device)",
    "lookup = torch.zeros(int(inverse.max()) + 1, dtype=features.dtype, device=support.device)").replace(
    "lookup[support_groups] = torch.arange(support.shape[0], device=support.device)",
    "lookup[support_groups] = features").replace(
    "ROWS = _coordinate_lookup(SUPPORT, torch.tensor([[1, 0, 0, 0], [0, 9, 9, 9], [0, 1, 2, 3]]))",
    "ROWS = _coordinate_lookup(SUPPORT[[0, 0, 2]], SUPPORT[:1], torch.tensor([1.0, 2.0, 4.0]))")


def test_row_numbers_written_per_unique_group(torch):
    assert run_snippet(ROW_NUMBER_PER_GROUP)["ROWS"].tolist() == [2, -1, 0]
    assert codes(ROW_NUMBER_PER_GROUP) == []


def test_features_written_per_unique_group_are_still_reported(torch):
    assert FEATURE_PER_GROUP != ROW_NUMBER_PER_GROUP
    assert run_snippet(FEATURE_PER_GROUP)["ROWS"].tolist()[0] in (1.0, 2.0)  # not their sum, 3.0
    assert codes(FEATURE_PER_GROUP) == ["GL013"]


# torchref's reflection clustering (experimental/alignment/frf/data_mr.py): clusters are the groups of a
# key built from the |s| key and the cos key, `key = k_s * (2 * S + 1) + k_c`, and each cluster's shell is
# written with `shell_of_cluster[inverse] = inv_s`, the grouping of `k_s`: members of a cluster share the key,
# so they share k_s and its shell, and every write to a cluster carries the same value.
SHELL_OF_EACH_CLUSTER = '''
import torch

_SCALE_S = 1000
_SCALE_COS = 100


def cluster(s_vectors):
    device = s_vectors.device
    s_key = s_vectors.detach().cpu().to(torch.float64)
    s_mag_key = s_key.norm(dim=-1).clamp(min=1e-30)
    cos_key = (s_key[..., 2] / s_mag_key).clamp(min=-1.0, max=1.0)
    k_s = (s_mag_key * _SCALE_S).round().to(torch.int64)
    k_c = (cos_key * _SCALE_COS).round().to(torch.int64) + _SCALE_COS
    key = (k_s * (2 * _SCALE_COS + 1) + k_c).to(s_vectors.device)
    uniq_key, inverse = torch.unique(key, return_inverse=True)
    n_clusters = int(uniq_key.shape[0])
    uniq_ks, inv_s = torch.unique(k_s, return_inverse=True)
    inv_s = inv_s.to(device)
    shell_of_cluster = torch.zeros(n_clusters, dtype=torch.int64, device=device)
    shell_of_cluster[inverse] = inv_s
    return shell_of_cluster


if __name__ == "__main__":
    S = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 2.0, 0.0]])
    SHELLS = cluster(S)
'''

# the mistake the rule is for: the clusters' azimuth group written instead, which the key does not hold:
# members of one cluster (the first two rows) have different azimuths, and one of them is lost
AZIMUTH_OF_EACH_CLUSTER = SHELL_OF_EACH_CLUSTER.replace(
    "    uniq_ks, inv_s = torch.unique(k_s, return_inverse=True)\n",
    "    k_phi = torch.atan2(s_key[..., 1], s_key[..., 0]).mul(_SCALE_COS).round().to(torch.int64)\n"
    "    uniq_ks, inv_s = torch.unique(k_phi, return_inverse=True)\n")


def test_a_part_of_the_unique_key_written_per_group(torch):
    assert run_snippet(SHELL_OF_EACH_CLUSTER)["SHELLS"].tolist() == [0, 1, 1]
    assert codes(SHELL_OF_EACH_CLUSTER) == []


def test_a_value_outside_the_unique_key_written_per_group_is_still_reported(torch):
    assert AZIMUTH_OF_EACH_CLUSTER != SHELL_OF_EACH_CLUSTER
    assert codes(AZIMUTH_OF_EACH_CLUSTER) == ["GL013"]


# A neighbour-list helper tiles each frame's atom types over its local atoms and gathers the neighbours'
# types along the last dim; the comment above the tile is stale (it leaves the frames out). `tile` with three
# repeats makes at least three dims, so a two-dim comment describes something else.
TILED_TYPES = """
import torch

def neighbour_types(nlist: torch.Tensor, atype: torch.Tensor) -> torch.Tensor:
    nf, nloc, nnei = nlist.shape
    # nloc x nall
    tiled = TILE
    absent = nlist == -1
    return torch.gather(tiled, 2, nlist.masked_fill(absent, 0)).masked_fill(absent, -1)

if __name__ == "__main__":
    atype = torch.tensor([[0, 1, 2, 1, 0, 2], [2, 2, 1, 0, 0, 1]])
    nlist = torch.tensor([[[1, 5, -1], [0, 2, 3]], [[4, -1, -1], [5, 1, 0]]])
    TYPES = neighbour_types(nlist, atype)
"""


@pytest.mark.parametrize("tile", ["torch.tile(atype.unsqueeze(1), [1, nloc, 1])", "atype.unsqueeze(1).repeat(1, nloc, 1)",
                                  "atype.unsqueeze(1).expand(-1, nloc, -1)", "atype.view(nf, 1, -1).tile((1, nloc, 1))"])
def test_a_comment_with_fewer_dims_than_a_tile_makes_is_not_a_fact(tile, torch):
    code = TILED_TYPES.replace("TILE", tile)
    assert run_snippet(code)["TYPES"].tolist() == [[[1, 2, -1], [0, 2, 1]], [[0, -1, -1], [1, 2, 2]]]
    assert codes(code) == []


def test_a_two_dim_table_gathered_along_dim_2_is_still_reported(torch):
    # the same comment on a binding that is two-dim: the gather along dim 2 raises
    code = TILED_TYPES.replace("TILE", "atype[0].unsqueeze(0).expand(nloc, -1)")
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(code)
    assert "GL002" in codes(code)


# An auction assignment marks "no bidder" with the fill n, lets each column's lowest bidder win with
# scatter_reduce_("amin"), and reads back only the columns whose winner is below n: the rows it writes through
# hold no n, though the fill stays in the columns nobody bid on.
AUCTION = """
import torch

def assign(best_col, bidders, n):
    owner = torch.full((n,), -1, dtype=torch.long)
    winner = torch.full((n,), n, dtype=torch.long)
    winner.scatter_reduce_(0, best_col, bidders, reduce="amin")
    SELECT
    owner[rows] = cols
    taken = torch.full((n,), -1, dtype=torch.long)
    taken[cols] = rows  # reads cols in a written subscript: no second binding of it
    return owner

if __name__ == "__main__":
    OWNERS = assign(torch.tensor([2, 0, 2]), torch.tensor([1, 3, 0]), 4)
"""


@pytest.mark.parametrize("select", [
    "cols = (winner < n).nonzero(as_tuple=True)[0]; rows = winner[cols]",
    "cols = torch.where(winner != n)[0]; rows = winner[cols]",
    "won = winner.lt(n); cols = torch.nonzero(won).squeeze(1); rows = winner[cols]",
    "won = winner < n; cols = won.nonzero()[:, 0]; rows = winner[won]",
])
def test_entries_selected_apart_from_the_fill_hold_no_fill(select, torch):
    code = AUCTION.replace("SELECT", select)
    assert run_snippet(code)["OWNERS"].tolist() == [2, -1, -1, 0]
    assert codes(code) == []
    assert codes(code.split("if __name__")[0]) == []  # n unknown: the mask compares with the fill itself


@pytest.mark.parametrize("select", [
    "cols = (winner <= n).nonzero(as_tuple=True)[0]; rows = winner[cols]",  # keeps the fill
    "cols = torch.where(winner > 0)[0]; rows = winner[cols]",
])
def test_entries_selected_with_the_fill_are_still_reported(select, torch):
    code = AUCTION.replace("SELECT", select)
    with pytest.raises(IndexError, match="out of bounds"):
        run_snippet(code)
    assert codes(code) == ["GL011"]


# Flat shading averages each face's three vertices (`verts[faces]`, faces ids of unknown dtype here) and
# writes the shape before the mean in the comment: the lookup has at most three dims and the mean takes one,
# so the comment's three dims describe the mean's input, and the gather of a 2-d index is right.
FLAT_SHADING = """
import torch

def flat_shading(verts, faces, pix_to_face):
    # verts: (V, 3)  faces: (F, 3)
    faces_verts = verts[faces]
    face_coords = faces_verts.mean(dim=-2)  # (F, 3, XYZ) mean xyz across verts
    n, h, w, k = pix_to_face.shape
    idx = pix_to_face.clamp(min=0).view(n * h * w * k, 1).expand(n * h * w * k, 3)
    return face_coords.gather(0, idx).view(n, h, w, k, 3)

if __name__ == "__main__":
    verts = torch.randn(5, 3)
    faces = torch.tensor([[0, 1, 2], [2, 3, 4]])
    pix = torch.tensor([[[[1], [0]], [[0], [1]]]])
    OUT = flat_shading(verts, faces, pix)
"""


def test_a_comment_with_more_dims_than_a_reduced_lookup_can_have_is_not_a_fact(torch):
    scope = run_snippet(FLAT_SHADING)
    verts, faces = scope["verts"], scope["faces"]
    assert torch.allclose(scope["OUT"][0, 0, 0, 0], verts[faces[1]].mean(0))
    assert codes(FLAT_SHADING) == []
    assert codes(FLAT_SHADING.split("if __name__")[0]) == []


def test_a_comment_that_the_reduced_lookup_can_have_still_describes_it(torch):
    # the comment gives the mean's own two dims: a 1-d index on it is the slip GL001 is for
    code = FLAT_SHADING.replace("# (F, 3, XYZ) mean xyz across verts", "# (F, XYZ)").replace(
        ".view(n * h * w * k, 1).expand(n * h * w * k, 3)", ".view(-1)").replace(".view(n, h, w, k, 3)", "")
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions"):
        run_snippet(code)
    assert codes(code.split("if __name__")[0]) == ["GL001"]


# Last-token pooling turns the last positions into a gather index in two steps, with one comment for both
# above the first: `repeat(1, d)` lists two sizes, so it makes two dims, whatever a comment says.
LAST_POOLING = """
import torch

def last_pool(tokens, mask):
    _, sequence, dimensions = tokens.shape
    values, indices = mask.flip(1).max(1)
    indices = torch.where(values == 0, sequence - 1, indices)
    last = sequence - indices - 1

    # Turn indices from shape [bs] --> [bs, 1, hidden_dim]
    last = STEP
    last = last.unsqueeze(1)
    return torch.gather(tokens * mask.unsqueeze(-1).to(tokens.dtype), 1, last).squeeze(1)

if __name__ == "__main__":
    TOKENS = torch.randn(3, 7, 16)
    OUT = last_pool(TOKENS, torch.tensor([[1] * 7, [1] * 4 + [0] * 3, [1] * 2 + [0] * 5]))
"""


@pytest.mark.parametrize("step", ["last.unsqueeze(-1).repeat(1, dimensions)", "last.view(-1, 1).expand(-1, dimensions)",
                                  "last.reshape(-1, 1).repeat(1, dimensions)"])
def test_a_comment_with_another_rank_than_a_listed_size_op_makes_is_not_a_fact(step, torch):
    code = LAST_POOLING.replace("STEP", step)
    scope = run_snippet(code)
    assert torch.equal(scope["OUT"], scope["TOKENS"][torch.arange(3), torch.tensor([6, 3, 1])])
    assert codes(code) == []


# A top-p filter sums a mask of the tokens to cut, after forcing its last column False so that one token is
# always kept: the count is at most V - 1, a valid position.
TOP_P_CUTOFF = """
import torch

def cutoff(logits, p):
    probs_sort, _ = logits.softmax(dim=-1).sort(dim=-1, descending=False)
    cut = torch.cumsum(probs_sort, dim=-1) <= 1 - p.unsqueeze(dim=1)
    KEEP
    count = cut.sum(dim=-1).unsqueeze(1)
    return probs_sort.gather(-1, count)

if __name__ == "__main__":
    OUT = cutoff(torch.zeros(2, 50), torch.tensor([1e-9, 0.5]))
"""


@pytest.mark.parametrize("keep", ["cut[:, -1] = False", "cut[..., -1] = 0"])
def test_a_mask_with_a_false_column_counts_below_its_width(keep, torch):
    code = TOP_P_CUTOFF.replace("KEEP", keep)
    assert run_snippet(code)["OUT"].shape == (2, 1)
    assert codes(code) == []


def test_a_mask_that_can_be_all_true_is_still_reported(torch):
    code = TOP_P_CUTOFF.replace("KEEP", "pass")
    with pytest.raises(RuntimeError, match="out of bounds"):
        run_snippet(code)  # p = 1e-9: every token is cut, the count is 50
    assert codes(code) == ["GL011"]


# A CTC loss documents `logits: (B, D)`, while its own comment and its callers have (B, L, D): the author's two
# texts disagree, so neither is a fact, here or in the helper it passes logits to before the comment.
CTC = """
import torch
import torch.nn.functional as F

def ctc_loss(logits, target, logits_lengths, target_lengths, need_acc=False):
    \"\"\"CTC loss.
    Args:
        logits: (B, D), D is the number of keywords plus 1
        target: (B)
    \"\"\"
    acc = accuracy(logits, logits_lengths) if need_acc else 0.0
    # logits: (B, L, D) -> (L, B, D)
    logits = logits.transpose(0, 1).log_softmax(2)
    return F.ctc_loss(logits, target, logits_lengths, target_lengths, reduction="sum"), acc

def accuracy(logits, lengths):
    probs = logits.softmax(2)  # (1, maxlen, vocab_size)
    return sum(int(probs[i][: lengths[i]].argmax(-1).numel()) for i in range(probs.size(0)))

if __name__ == "__main__":
    LOSS, ACC = ctc_loss(torch.randn(2, 50, 30), torch.randint(1, 30, (2, 4)), torch.tensor([50, 40]),
                         torch.tensor([4, 3]), need_acc=True)
"""


def test_a_docstring_shape_the_functions_own_comment_contradicts_is_not_a_fact(torch):
    scope = run_snippet(CTC)
    assert scope["ACC"] == 90 and scope["LOSS"].dim() == 0
    assert codes(CTC) == []
    assert codes(CTC.split("if __name__")[0]) == []


def test_a_docstring_shape_nothing_contradicts_still_decides(torch):
    # the same docstring without the body's comment: a softmax over dim 2 of the documented 2-d logits
    code = CTC.replace("    # logits: (B, L, D) -> (L, B, D)\n", "").split("if __name__")[0]
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.randn(4, 30).softmax(2)
    assert "GL002" in codes(code)
