"""False positives once seen on real code, reduced to their pattern. Each must stay silent."""
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
