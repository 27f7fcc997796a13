"""False positives once seen on real code, reduced to their pattern. Each must stay silent."""
import textwrap

import pytest

from .conftest import codes


def test_sum_of_a_comparison_is_an_integer_index(torch):
    # logits processors: `(cumulative_probs < mass).sum(dim=1)` used as a gather index
    code = """
    import torch
    def f(scores, mass):
        sorted_scores, sorted_indices = torch.sort(scores, descending=False)
        cumulative = sorted_scores.softmax(dim=-1).cumsum(dim=-1)
        last_ind = (cumulative < mass).sum(dim=1)
        return sorted_scores.gather(1, last_ind.view(-1, 1))
    """
    assert codes(code) == []
    assert (torch.randn(3, 4) < 0).sum(dim=1).dtype == torch.int64


def test_sum_of_bool_minus_one_is_an_integer_index(torch):
    # spline flows: `torch.sum(inputs[..., None] >= bin_locations, dim=-1) - 1`
    code = """
    import torch
    def f(inputs, cumwidths):
        bin_idx = torch.sum(inputs[..., None] >= cumwidths, dim=-1) - 1
        bin_idx = bin_idx[..., None]
        return cumwidths.gather(-1, bin_idx)
    """
    assert codes(code) == []
    assert (torch.sum(torch.ones(2, 3) >= 0.5, dim=-1) - 1).dtype == torch.int64


def test_a_comment_listing_values_is_not_a_shape():
    code = """
    import torch
    def f(hidden_states, offsets):
        # Indices: [1, 3, 5] (odd) or [0] (duplicate)
        second = torch.cat(offsets, dim=-1)
        return torch.index_select(hidden_states, dim=0, index=second)
    """
    assert codes(code) == []


def test_starred_sizes_are_spliced_not_counted_as_one():
    code = """
    import torch
    def f(relative_states, proj, distance):
        # relative_states: [batch, q_len, num_heads, d_rel] -> bias: [batch, num_heads, q_len, kv_len]
        rel_logits = (relative_states @ proj).transpose(1, 2)
        gather_index = distance.clamp(0, 5).expand(*rel_logits.shape[:2], -1, -1)
        return rel_logits.gather(-1, gather_index)
    """
    assert codes(code) == []


def test_token_ids_named_like_a_count_are_not_ids():
    code = """
    def f(log_probs, num_tokens):
        log_probs = log_probs  # [B, L, vocab_size]
        return log_probs.gather(1, num_tokens)
    """
    assert codes(code) == []


@pytest.mark.parametrize("text", ["# (see paper)", "# TODO: fix [this]", "# compute the (a, b) pairs", "# x has (B, L)"])
def test_prose_comments_are_not_shapes(text):
    code = f"""
    import torch
    def f(idx):
        x = load()  {text}
        return x.gather(0, idx)
    """
    assert codes(code) == []


def test_pairs_of_index_tensors_are_positions_not_repeats():
    # a multi-label loss: (row, label) pairs from an edge index are distinct even when rows repeat
    code = """
    import torch
    def f(inputs, edge_label_index, neg_mask, neg_weight):
        neg_y = edge_label_index[:, neg_mask]
        inputs = inputs.clone()
        inputs[neg_y[0], neg_y[1]] += neg_weight.abs().log()
        return inputs
    """
    assert codes(code) == []


def test_dicts_written_by_key_are_not_tensors():
    # a processor builds a dict of lists keyed by token strings, then unwraps single items
    code = """
    import torch
    def f(tokens):
        output = {}
        for key in tokens:
            if len(output[key]) == 1:
                output[key] = output[key][0]
            output[key] += 1
        return output
    """
    assert codes(code) == []


# An unresolved size argument may be a whole tuple of sizes: it is never one dim (GL001/GL002 on correct code).
def test_a_gather_along_a_broadcast_dim_of_the_input_is_gl019(torch):
    # the matrix broadcast over the batch is the same along dim 1: any index reads the same values there
    code = "import torch\n" + textwrap.dedent("""
    b = torch.randn(4, 5).expand(2, 3, 4, 5)
    out = b.gather(1, torch.randint(3, (2, 3, 4, 5)))
    """)
    assert codes(code) == ["GL019"]
    scope: dict = {}
    exec(code, scope)
    assert torch.equal(scope["out"], scope["b"])


@pytest.mark.parametrize("body", [
    # batched gather along a dim with the trailing dims taken from the input
    """
    x = torch.randn(2, 3, 4)
    idx = torch.randint(3, (2, 7))
    out = x.gather(1, idx.unsqueeze(-1).expand((-1, -1) + x.shape[2:]))
    """,
    # broadcast a matrix over a batch unpacked with a star
    """
    mat = torch.randn(2, 3, 4, 5)
    *batch, n, m = mat.shape
    b = torch.randn(4, 5).expand(*batch, n, m)
    out = b.gather(2, torch.randint(4, (2, 3, 4, 5)))
    """,
    """
    a = torch.randn(4, 5)
    *batch, _, _ = torch.randn(2, 3, 4, 5).shape
    b = a.expand(*batch, *a.shape)
    out = b.gather(3, torch.randint(5, (2, 3, 4, 5)))
    """,
    """
    b = torch.randn(6).expand(torch.Size([4, 5, 6]))
    out = b.gather(2, torch.zeros(4, 5, 6, dtype=torch.long))
    """,
    """
    mat = torch.randn(2, 3, 4)
    b = torch.randn(2, 3, 2, 3).view(mat.shape[:-1] + (6,))
    out = b.gather(2, torch.zeros(2, 3, 6, dtype=torch.long))
    """,
    # scatter_sum: the output's size list copied from src, one entry replaced
    """
    src = torch.randn(5, 3)
    index = torch.zeros(5, 3, dtype=torch.long)
    size = list(src.shape)
    size[0] = 4
    out = src.new_zeros(size).scatter_add_(0, index, src)
    """,
    """
    mat = torch.randn(2, 3, 4)
    out = mat.new_zeros(mat.shape[:-1] + (3,))
    out = out.scatter_(2, torch.zeros(2, 3, 3, dtype=torch.long), mat[..., :3])
    """,
])
def test_size_sequences_resolve_or_stay_unknown(body, torch):
    code = "import torch\n" + textwrap.dedent(body)
    assert codes(code) == []
    exec(code, {})  # and torch runs it


def test_size_parameter_is_not_one_dim():
    code = """
    import torch
    def f(a, shape, out_shape):
        a = torch.randn(24)
        b = a.view(shape)
        c = torch.randn(6).new_zeros(out_shape)
        idx = torch.zeros(2, 3, 4, dtype=torch.long)
        return b.gather(2, idx), c.scatter_(2, idx, b)
    """
    assert codes(code) == []


def test_a_size_list_changed_in_place_is_forgotten():
    code = """
    import torch
    def f(src, index):
        src = torch.randn(5, 3)
        size = list(src.shape)
        size.append(2)
        out = src.new_zeros(size)
        return out.scatter_add_(0, torch.zeros(5, 3, 2, dtype=torch.long), src.unsqueeze(-1).expand(5, 3, 2))
    """
    assert codes(code) == []


def test_call_site_shapes_skip_branches_the_call_rules_out(torch):
    # a helper written for several layouts, called with one of them and a constant flag
    code = """
    import torch
    def select_entries(table, positions, flat=False, layout: str = "rows"):
        if flat:
            return table.reshape(-1).gather(0, positions)
        if layout == "cube" or table.dim() == 3:
            return table.gather(2, positions)
        return table.gather(1, positions)

    def run():
        table = torch.randn(6, 3)
        positions = torch.randint(3, (6, 2))
        return select_entries(table, positions), select_entries(table, positions, flat=False, layout="rows")
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    namespace["run"]()


def test_an_uncertain_condition_still_checks_both_branches():
    code = """
    import torch
    def f(flat):
        table = torch.randn(6, 3)
        positions = torch.randint(3, (6, 2))
        if flat:
            return table.gather(2, positions)
        return table.gather(1, positions)
    """
    assert codes(code) == ["GL002"]


def test_an_unknown_slice_bound_is_not_an_absent_one():
    # segment reductions: the output size spliced from src's sizes around a dim the caller chose
    code = """
    import torch
    def reduce_segments(src, index, dim=0, dim_size=None):
        dim = src.dim() + dim if dim < 0 else dim
        size = src.size()[:dim] + (dim_size,) + src.size()[dim + 1:]
        head = src[:dim_size]
        return src.new_zeros(size).scatter_add_(dim, index, src), head.gather(0, index)

    def counts(values, index, groups):
        assert values.dim() == 1 and index.dim() == 1
        return reduce_segments(torch.ones_like(index), index, dim=-1, dim_size=groups)
    """
    assert codes(code) == []


def test_a_docstring_shape_of_list_items_is_not_the_lists_shape():
    # masked patch selection: the docstring gives the shape of each tensor in a list
    code = '''
    import torch
    def keep_patches(tokens, masks, extra):
        """
        Args:
            tokens (`torch.Tensor`):
                Tensor of shape [batch_size, num_patches, feature_dim]
            masks (`List[torch.Tensor]`):
                List of tensors of shape [batch_size, num_patches] containing indices of patches to keep
            extra (tuple): pair of tensors of shape [batch_size, num_patches]
        """
        kept = []
        for mask in masks:
            index = mask.unsqueeze(-1).repeat(1, 1, tokens.size(-1))
            kept += [torch.gather(tokens, dim=1, index=index)]
        for mask in extra:
            kept += [torch.gather(tokens, dim=1, index=mask.unsqueeze(-1).repeat(1, 1, tokens.size(-1)))]
        return torch.cat(kept, dim=0)
    '''
    assert codes(code) == []


def test_one_label_picked_by_a_loop_counter_cannot_repeat():
    # a per-sample reference loop counts hits one label at a time: `counts[labels[i]] += 1` is exact
    code = """
    import torch
    def per_class_hits(labels, preds):
        counts = torch.zeros(10, dtype=torch.long)
        for i in range(labels.shape[0]):
            if labels[i] == preds[i]:
                counts[labels[i]] += 1
        return counts
    """
    assert codes(code) == []


def test_labels_picked_by_a_mask_can_still_repeat(torch):
    code = """
    import torch
    def hits(labels, keep):
        counts = torch.zeros(10)
        counts[labels[keep > 0]] += 1
        return counts
    """
    assert codes(code) == ["GL013"]
    labels, keep = torch.tensor([3, 3, 1]), torch.tensor([1, 1, 1])
    counts = torch.zeros(10)
    counts[labels[keep > 0]] += 1
    assert counts[3] == 1  # two hits of label 3 counted once: the claim GL013 makes


@pytest.mark.parametrize("resize", [
    "flat.view(new_shape)",
    "flat.reshape(new_shape)",
    "flat.expand(new_shape)",
])
def test_a_helpers_untracked_size_tuple_is_not_one_dim(resize):
    # a segment-reduce helper returns `view(list(batch_shape) + [n])`; its callers gather from the result
    code = f"""
    import torch
    def segment_sum(values, new_shape):
        flat = values.sum(-1)
        return {resize}

    def lookup(values, index, shape):
        reduced = segment_sum(values, shape)
        return torch.gather(reduced, 1, index.view(values.size(0), -1))
    """
    assert codes(code) == []


def test_shared_column_selections_are_not_per_row_picks(torch):
    # GL017 stays silent on column lists every row shares: sliding n-gram windows over the sequence,
    # a random sample of key positions (sparse attention), a column permutation of edges
    code = """
    import torch
    def windows(input_ids):
        batch_size, seq_length = input_ids.shape
        idx = torch.arange(3).unsqueeze(0) + torch.arange(seq_length - 2).unsqueeze(1)
        return input_ids[:, idx]

    def sampled_keys(key_states, u: int):
        key_states = key_states  # [BH, L, D]
        sample = torch.randint(0, key_states.size(1), (u,))
        return key_states[:, sample, :]

    def permute_edges(edge_index, num_nodes):
        edge_index = edge_index  # [2, E]
        perm = (edge_index[0] * num_nodes + edge_index[1]).argsort()
        return edge_index[:, perm]
    """
    assert codes(code) == []
    ids = torch.randint(9, (2, 6))
    windows = torch.arange(3).unsqueeze(0) + torch.arange(4).unsqueeze(1)
    assert ids[:, windows].shape == (2, 4, 3) and bool((ids[:, windows][:, 1] == ids[:, 1:4]).all())


def test_an_unknown_operand_may_broadcast_a_size_one_dim(torch):
    # MoE combine: `expert(rows) * weights.unsqueeze(-1)` with `expert` from a ModuleList is [K, D], not [K, 1]
    code = """
    import torch
    def combine(out, experts, rows, weights, tok):
        for e, expert in enumerate(experts):
            y = expert(rows) * weights.index_select(0, tok).unsqueeze(-1)
            out.index_add_(0, tok, y)
        return out

    if __name__ == "__main__":
        combine(torch.zeros(6, 4), [torch.nn.Linear(4, 4)], torch.randn(3, 4), torch.rand(6), torch.tensor([0, 2, 5]))
    """
    assert codes(code) == []
    y = torch.nn.Linear(4, 4)(torch.randn(3, 4)) * torch.rand(3).unsqueeze(-1)
    assert y.shape == (3, 4)


def test_cutting_a_zero_dim_tensor_is_not_an_internal_error(torch):
    # a diffusers pipeline: `.chunk()` of a value the analysis knew as 0-d crashed the file's analysis
    code = """
    import torch
    def f(ids):
        x = torch.tensor(3.0)
        first, second = x.chunk(2, dim=0)
        return torch.gather(torch.randn(4, 5), 1, ids.long()), first
    """
    assert codes(code) == []
    with pytest.raises(RuntimeError, match="at least a 1-dimensional"):  # torch refuses the cut itself
        torch.tensor(3.0).chunk(2, dim=0)


def test_min_against_another_tensor_is_elementwise_not_a_reduction(torch):
    # a diffusers video pipeline: `torch.min(timestep, (1.0 - mask) * 1000.0)` was read as a full reduction
    # (the unknown second argument taken for no argument), so `timestep[:, :1, :, 0, 0]` indexed a 0-d tensor
    code = """
    import torch
    def f(t, cond_mask):
        timestep = t.expand(cond_mask.shape).float()
        timestep = torch.min(timestep, (1.0 - cond_mask) * 1000.0)
        return timestep[:, :1, :, 0, 0], timestep.chunk(2)[0]
    """
    assert codes(code) == []
    mask = torch.zeros(2, 1, 3, 4, 4)
    timestep = torch.min(torch.tensor(500.0).expand(mask.shape).float(), (1.0 - mask) * 1000.0)
    assert timestep.shape == mask.shape and timestep[:, :1, :, 0, 0].shape == (2, 1, 3)



def test_min_and_max_shapes_against_torch(tmp_path, torch):
    """min() alone reduces; min(dim) gives values and positions; min(a, b) and min(a, unknown) are not reductions."""
    import subprocess
    import sys
    script = tmp_path / "m.py"
    script.write_text(textwrap.dedent("""\
        import torch


        def f(other, k):
            x = torch.randn(3, 4)
            m = torch.min(x)
            e = torch.min(x, torch.randn(4))
            v, i = x.max(1)
            u = torch.max(x, other)
            w = x.min(k)
            return m, e, v, i, u, w
    """))
    out = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", str(script)], capture_output=True, text=True)
    import re
    shapes = dict(re.match(r"\s*\d+\s+(\w+)\s+(\[[^\]]*\]|\?)", row).groups() for row in out.stdout.splitlines()[2:])
    x = torch.randn(3, 4)
    assert shapes["m"] == "[]" == str(list(torch.min(x).shape))
    assert shapes["e"] == "[3, 4]" == str(list(torch.min(x, torch.randn(4)).shape))
    assert shapes["v"] == shapes["i"] == "[3]" == str(list(x.max(1).values.shape))
    assert shapes.get("u", "?") == "?" and shapes.get("w", "?") == "?"  # a tensor or a dim: not known which


def test_an_index_list_guarded_against_emptiness_through_its_tensor(torch):
    # botorch kernels: `idx = torch.tensor([i for i in ... if ...])`, then `if len(idx) == 0: raise`
    code = """
    import torch
    def f(x, skip):
        idx = torch.tensor([i for i in range(x.size(-1)) if not skip[i]], device=x.device)
        if len(idx) == 0:
            raise RuntimeError("nothing left")
        return x.index_select(dim=-1, index=idx)
    """
    assert codes(code) == []
    unguarded = code.replace('        if len(idx) == 0:\n            raise RuntimeError("nothing left")\n', "")
    assert codes(unguarded) == ["GL008"]
    namespace = {}
    exec(textwrap.dedent(unguarded), namespace)
    with pytest.raises(RuntimeError, match="index"):
        namespace["f"](torch.randn(2, 3), [True, True, True])  # the float32 empty index the guard keeps out


def test_code_after_a_guard_that_raises_for_these_facts_is_not_checked(torch):
    # espnet's interpolate_bilinear: `if len(shape) != 4: raise ...` before unpacking four sizes
    code = """
    import torch
    def f(grid, idx):
        if len(grid.shape) != 4:
            raise ValueError("grid must be 4-d")
        b, h, w, c = grid.shape
        return grid.gather(1, idx)
    def g():
        return f(torch.randn(2, 3, 4, 5, 6), torch.zeros(2, 3, 4, 5, 6, dtype=torch.long))
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    with pytest.raises(ValueError, match="grid must be 4-d"):
        namespace["g"]()


def test_a_docstring_rank_changed_by_an_op_is_not_enough_to_unpack_against(torch):
    # espnet's dense_image_warp: the docstring (of the library it was ported from) says 4-d, the code
    # unsqueezes a 3-d image and unpacks four sizes
    code = '''
    import torch
    def warp(image, idx):
        """Args:
            image: 4-D float `Tensor` with shape `[batch, height, width, channels]`.
        """
        image = image.unsqueeze(3)
        batch_size, height, width, channels = image.shape
        return image.gather(1, idx)
    '''
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    out = namespace["warp"](torch.randn(2, 3, 4), torch.zeros(2, 3, 4, 1, dtype=torch.long))
    assert out.shape == (2, 3, 4, 1)  # the code runs on the 3-d images it is given


def test_an_in_place_squeeze_changes_the_shape(torch):
    # fairseq2's sampling generator: `probs.squeeze_(1)` makes [N, 1, V] into [N, V] before the gather
    code = """
    import torch
    def step():
        probs = torch.softmax(torch.randn(4, 1, 10), dim=-1)
        probs.squeeze_(1)
        idx = torch.zeros(4, dtype=torch.long)
        return torch.gather(probs, dim=-1, index=idx[:, None])
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    assert namespace["step"]().shape == (4, 1)
    unsqueezed = code.replace("probs.squeeze_(1)", "probs.unsqueeze_(0)")
    assert codes(unsqueezed) == ["GL001"]  # [1, 4, 1, 10] against a 2-d index: torch raises
    namespace = {}
    exec(textwrap.dedent(unsqueezed), namespace)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        namespace["step"]()


def test_a_numbered_step_comment_is_not_a_shape():
    # gpytorch: `# (3) compute trace_term` above `expanded = stddev.unsqueeze(-1).expand(...)`
    code = """
    import torch
    def f(stddev, idx, m, k):
        # (3) compute trace_term
        expanded = stddev.unsqueeze(-1).expand(m, k)
        return expanded.gather(-2, idx)
    """
    assert codes(code) == []
    from gather_lint.static.shape_text import parse_comment
    assert parse_comment("# (3) compute trace_term") is None
    assert str(parse_comment("# (3,)")) == "[3]" and str(parse_comment("# [3]")) == "[3]"


BEAM_SEARCH = """
import torch
def search(scores_per_hyp, n_vocab, pre_beam, k):
    part_ids = torch.arange(n_vocab)
    for scores in scores_per_hyp:
        weighted = torch.zeros(n_vocab)
        if pre_beam:
            part_ids = REBOUND
        weighted[part_ids] += scores[part_ids]
    return weighted
"""


@pytest.mark.parametrize("rebound, expected", [
    ("torch.topk(scores, k)[1]", []),  # espnet's beam search: arange(V) or top-k of a 1-d score, positions either way
    ("torch.randint(0, n_vocab, (k,))", ["GL013"]),  # a draw can repeat: the name's word stands
])
def test_ids_rebound_in_a_loop_repeat_only_if_a_binding_can(rebound, expected, torch):
    """Only positions made on every path stay silent (the loop forgets which binding holds)."""
    assert codes(BEAM_SEARCH.replace("REBOUND", rebound)) == expected
    weighted = torch.zeros(3)
    part_ids = torch.tensor([1, 1])
    weighted[part_ids] += torch.tensor([1.0, 1.0])
    assert weighted[1].item() == 1.0  # the repeated position was written once, not twice


def test_a_product_with_an_unknown_matrix_product_is_not_the_known_operands_shape(torch):
    # kornia's rank-2 projection: `M = F.mT @ F` of a batched F, then `rows = M - smallest[:, None, None] * eye`
    code = """
    import torch
    def project(F: torch.Tensor):
        eye = torch.eye(3, dtype=F.dtype)
        M = F.mT @ F
        smallest = M.diagonal(dim1=-2, dim2=-1).sum(-1) / 3
        rows = M - smallest[:, None, None] * eye
        norms = rows.square().sum(-1)
        top = norms.argmax(1, keepdim=True)
        return rows.gather(1, top[..., None].expand(-1, 1, 3))[:, 0]
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    assert namespace["project"](torch.randn(5, 3, 3)).shape == (5, 3)


def test_a_tensor_key_of_an_unknown_owner_may_be_a_dict_key(torch):
    # NeMo's optimizer wrapper: `self.optimizer.state[main_param] = self.optimizer.state.pop(param)`
    code = """
    import torch
    class Wrapper:
        def __init__(self, optimizer):
            self.optimizer = optimizer
        def to_main(self, param):
            main_param = param.detach().clone().float()
            if param in self.optimizer.state:
                self.optimizer.state[main_param] = self.optimizer.state.pop(param)
            return main_param
    """
    assert codes(code) == []
    param = torch.nn.Parameter(torch.randn(3).half())
    optimizer = torch.optim.SGD([param], lr=0.1, momentum=0.9)
    param.grad = torch.ones_like(param)
    optimizer.state[param] = {"momentum_buffer": torch.zeros(3)}
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    main = namespace["Wrapper"](optimizer).to_main(param)
    assert main.dtype == torch.float32 and main in optimizer.state  # a dict keyed by a float tensor works


def test_a_max_of_positions_onto_zeros_is_the_max(torch):
    # torchrec's dedup: the last position of each id, `scatter_reduce(zeros, inverse, sort indices, "amax")`
    code = """
    import torch
    def last_positions():
        ids = torch.tensor([3, 1, 3, 2, 1])
        values, order = ids.sort()
        unique, inverse = values.unique_consecutive(return_inverse=True)
        return torch.scatter_reduce(torch.zeros(3, dtype=torch.int64), 0, inverse, order, reduce="amax")
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    ids = torch.tensor([3, 1, 3, 2, 1])
    values, order = ids.sort()
    unique, inverse = values.unique_consecutive(return_inverse=True)
    without_zeros = torch.zeros(3, dtype=torch.int64).scatter_reduce(0, inverse, order, reduce="amax", include_self=False)
    assert torch.equal(namespace["last_positions"](), without_zeros)  # positions are >= 0: the 0 changes nothing
    negative = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([-1.0, -2.0]), reduce="amax")
    assert negative[0].item() == 0.0  # values that can be negative: the zero floor is GL014's mistake
    assert codes(code.replace("order, reduce", "values.float() - 5, reduce").replace("dtype=torch.int64", "")) == ["GL014"]


def test_a_max_of_sort_positions_of_a_parameter_onto_zeros_is_the_max():
    # torchrec `modules/utils.py`, as written: `ids` is a parameter of unknown shape
    code = """
    import torch
    def deterministic_dedup(ids: torch.Tensor):
        sorted_values, sorted_indices = ids.sort()
        unique, inverse = sorted_values.unique_consecutive(return_inverse=True)
        return torch.scatter_reduce(input=torch.zeros_like(unique, dtype=torch.int64), dim=0, index=inverse,
                                    src=sorted_indices, reduce="amax")
    """
    assert codes(code) == []


def test_a_max_of_relu_weights_onto_zeros_is_the_max(torch):
    # sglang's sparse pooler: SPLADE-style relu token weights maxed into a zeros vocabulary vector
    code = """
    import torch
    import torch.nn.functional as F
    def pool(hidden, ids, vocab_size):
        weights = F.relu(hidden.sum(-1))
        out = torch.zeros(vocab_size, dtype=weights.dtype)
        return out.scatter_reduce(0, ids, weights, reduce="amax")
    def run():
        return pool(torch.randn(6, 4), torch.tensor([0, 2, 2, 5, 1, 0]), 8)
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    out = namespace["run"]()
    assert (out >= 0).all()  # a max of values >= 0 with the buffer's 0 is the max (0 where nothing lands)
    assert codes(code.replace("F.relu(hidden.sum(-1))", "hidden.sum(-1)")) == ["GL014"]  # any sign: reported
    assert codes(code.replace("F.relu(hidden.sum(-1))", "F.relu(hidden.sum(-1)).view(-1)")) == []  # a view keeps it


def test_a_max_of_a_cast_mask_onto_zeros_is_the_max(torch):
    # a multi-hot target: masked label slots send 0 (the cast mask) to class 0, real ones send 1; a max keeps 1
    code = """
    import torch
    def multi_hot(labels, num_classes, pad_id=-1):
        valid = (labels != pad_id).long()
        target = torch.zeros(labels.shape[0], num_classes)
        target.scatter_reduce_(1, labels * valid, valid.float(), reduce="amax")
        return target
    def run():
        return multi_hot(torch.tensor([[0, -1, -1], [0, 3, -1], [2, -1, -1]]), 5)
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    labels = [[0, -1, -1], [0, 3, -1], [2, -1, -1]]
    expected = [[1.0 if c in row else 0.0 for c in range(5)] for row in labels]
    assert namespace["run"]().tolist() == expected  # 0s and 1s are >= 0: the buffer's 0 changes nothing
    assert codes(code.replace("valid.float(), reduce", "valid.float() - 0.5, reduce")) == ["GL014"]  # signed: reported


def test_an_unknown_tensor_over_a_zero_dim_one_keeps_the_unknown_shape(torch):
    # mmpretrain's BLIP-2 retriever: `sim_t2i = sim_t2i / self.temp` with a 0-d learnt temperature
    code = """
    import torch
    import torch.nn as nn
    class Retriever(nn.Module):
        def __init__(self):
            super().__init__()
            self.temp = nn.Parameter(0.07 * torch.ones([]))
        def forward(self, sims, bs, rank):
            sim_t2i, _ = sims.max(-1)
            sim_t2i = sim_t2i / self.temp
            weights_t2i = torch.softmax(sim_t2i, dim=1) + 1e-4
            weights_t2i[:, rank * bs:rank * bs + bs].fill_diagonal_(0)
            picked = torch.multinomial(weights_t2i, 1)
            return weights_t2i.gather(1, picked)
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    with torch.no_grad():
        assert namespace["Retriever"]()(torch.randn(4, 8, 3), 4, 1).shape == (4, 1)


def test_an_unknown_operand_given_new_dims_does_not_take_the_known_shape(torch):
    # transformers 4.30 deformable DETR: `pos = proposals[:, :, :, None] / dim_t`, dim_t [128]
    code = """
    import math
    import torch
    def proposal_pos_embed(proposals):
        num_pos_feats = 128
        dim_t = torch.arange(num_pos_feats, dtype=torch.float32)
        dim_t = 10000 ** (2 * torch.div(dim_t, 2, rounding_mode="floor") / num_pos_feats)
        proposals = proposals.sigmoid() * 2 * math.pi
        pos = proposals[:, :, :, None] / dim_t
        pos = torch.stack((pos[:, :, :, 0::2].sin(), pos[:, :, :, 1::2].cos()), dim=4).flatten(2)
        return pos.gather(1, torch.zeros(pos.shape[0], 1, pos.shape[2], dtype=torch.long))
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    assert namespace["proposal_pos_embed"](torch.randn(2, 5, 4)).shape == (2, 1, 512)


def test_keys_of_an_iterated_dict_are_no_index_tensors(torch):
    # transformers 4.40's SequenceBiasLogitsProcessor: `for sequence_ids, bias in self.sequence_bias.items()`,
    # then `bias_[:, sequence_ids[-1]] += ...`: the key is a tuple of token ids, its last one a single column
    code = """
    import torch
    def biased(input_ids: torch.LongTensor, scores: torch.FloatTensor, sequence_bias: dict):
        bias = torch.zeros_like(scores)
        for sequence_ids, weight in sequence_bias.items():
            last_token = sequence_ids[-1]
            matching_rows = torch.eq(input_ids[:, -1:], torch.tensor(sequence_ids[:-1])).prod(dim=1)
            bias[:, last_token] += torch.where(matching_rows.bool(), torch.tensor(weight), torch.tensor(0.0))
        return scores + bias
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    out = namespace["biased"](torch.tensor([[4], [2]]), torch.zeros(2, 6), {(4, 1): 1.0, (2, 1): 2.0})
    assert out[:, 1].tolist() == [1.0, 2.0]  # each key adds to one column: no position written twice


def test_an_x_separated_comment_is_read_whole_or_not_at_all(torch):
    # seggpt's post-processing: `# batch_size x num_channels x 2*height x width` above a 4-d slice; the
    # `2*height` part is no dim word, so the comment gives nothing (not its first two parts)
    code = """
    import torch
    def split_prompt(outputs):
        # batch_size x num_channels x 2*height x width
        masks = outputs.pred_masks
        masks = masks[:, :, masks.shape[2] // 2 :, :]
        return masks
    """
    assert codes(code) == []
    assert codes(code.replace("2*height", "height")) == []  # a whole run: [batch_size, num_channels, height, width]
    from gather_lint.static.shape_text import parse_comment
    assert parse_comment("batch_size x num_channels x 2*height x width", "masks", above=True) is None
    assert str(parse_comment("batch_size x num_channels x height x width", "masks", above=True)) == \
        "[batch_size, num_channels, height, width]"


def test_a_helpers_docstring_shape_does_not_size_what_it_returns_for_an_unsized_argument(torch):
    # gsplat's exporter: an elementwise packer documented `Shape (N,)` is handed [N, 3] components built
    # by advanced indexing (of no shape the analysis knows); its result is [N, 3] and `packed[:, 0]` runs
    code = '''
    import torch

    def pack_unorm(value: torch.Tensor, bits: int) -> torch.Tensor:
        """Pack a float into an unsigned integer.

        Args:
            value (torch.Tensor): Floating point value to pack. Shape (N,)
            bits (int): Number of bits.
        """
        t = (1 << bits) - 1
        return torch.clamp((value * t + 0.5).floor(), min=0, max=t).to(torch.int64)

    def pack_rotation(q: torch.Tensor, pick: torch.Tensor) -> torch.Tensor:
        rows = torch.arange(q.size(0))
        components = q[rows[:, None], pick]
        packed = pack_unorm(components * 0.5 + 0.5, 10)
        out = torch.zeros_like(rows)
        out[rows >= 0] += packed[:, 0] << 20
        return out | packed[:, 1]
    '''
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    out = namespace["pack_rotation"](torch.rand(5, 4), torch.tensor([[1, 2, 3]] * 5))
    assert out.shape == (5,)


def test_a_max_of_one_hots_and_uniform_draws_onto_zeros_is_the_max(torch):
    # voxel features: one-hot element channels beside an occupancy in [0, 1), maxed per voxel onto zeros;
    # one_hot, rand, casts, cat and column picks keep values >= 0, so the buffer's 0 changes nothing
    code = """
    import torch
    import torch.nn.functional as F
    def voxelize(ids):
        elements = torch.randint(0, 4, (40,))
        occupancy = torch.rand(40)
        feats = torch.cat([F.one_hot(elements, 4).float(), occupancy[:, None]], dim=1)
        grid = torch.zeros(16, feats.shape[1])
        return grid.scatter_reduce(0, ids[:, None].expand_as(feats), feats, reduce="amax"), feats
    def run():
        return voxelize(torch.randint(0, 16, (40,)))
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    grid, feats = namespace["run"]()
    assert (feats >= 0).all()
    assert codes(code.replace("occupancy = torch.rand(40)", "occupancy = torch.randn(40)")) == ["GL014"]


def test_a_max_pool_with_return_indices_gives_int64_positions(torch):
    # F.max_pool2d(..., return_indices=True) is (values, int64 indices): the indices were read as a row of the
    # float values, and a gather with them drew a false GL008
    code = """
    import torch
    import torch.nn.functional as F

    def best_cell(prob):
        # prob: (B, C, H, W)
        _, indice = F.max_pool2d(prob, kernel_size=2, stride=2, return_indices=True)
        flat = indice.flatten(2)
        return torch.gather(prob.flatten(2), 2, flat)

    def run():
        return best_cell(torch.rand(2, 3, 4, 4))
    """
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    assert namespace["run"]().shape == (2, 3, 4)
    assert codes(code.replace("indice.flatten(2)", "(indice / 2).flatten(2)")) == ["GL008"]


def test_a_docstring_listing_what_a_parameter_unpacks_into_is_no_shape(torch):
    # `batch: (ids, feats) from collate` names the pair `ids, _ = batch` unpacks, not a 2-d batch
    code = '''
    import torch

    class ItemPrior(torch.nn.Module):
        def __init__(self, num_items):
            super().__init__()
            self.register_buffer("prior", torch.arange(num_items).float())

        def forward(self, batch):
            """
            Args:
                batch: (ids, feats) from ``collate``; ids has shape (B, 2).
            """
            ids, _ = batch
            return self.prior.index_select(0, ids[:, 1])

    def run():
        return ItemPrior(10)((torch.tensor([[0, 3], [1, 7]]), torch.rand(2, 2)))
    '''
    assert codes(code) == []
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    assert namespace["run"]().tolist() == [3.0, 7.0]
