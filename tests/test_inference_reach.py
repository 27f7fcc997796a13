"""Facts that reach the faulty call: tensors unpacked by rows, concatenations with an unknown piece,
values moved by roll/flip, results of calls nested deeper than the caller-facts limit.
Each idiom is tested in several layouts (plain function, module method, helper called by a driver)
and with several ways of giving the shape (comment, jaxtyping, docstring, constructor)."""
import pytest

from .conftest import codes, lint


# ----- `row, col = edge_index`: unpacking a tensor iterates its dim 0 ------------------------------

def test_unpacked_rows_of_a_constructed_edge_index(torch):
    code = """
    import torch
    def run():
        e = torch.randint(0, 6, (2, 10))
        x = torch.randn(6, 4)
        s, r = e
        return x.new_zeros(6, 4).scatter_add_(0, r.unsqueeze(1).expand(-1, 4), x)
    """
    assert codes(code) == ["GL003"]
    e, x = torch.randint(0, 6, (2, 10)), torch.randn(6, 4)
    s, r = e
    with pytest.raises(RuntimeError, match="no larger"):
        x.new_zeros(6, 4).scatter_add_(0, r.unsqueeze(1).expand(-1, 4), x)


def test_unpacked_rows_in_a_method_with_comment_shapes(torch):
    code = """
    import torch
    import torch.nn as nn
    class SumConv(nn.Module):
        def propagate(self, h, pairs):
            # h: [num_nodes, C]  pairs: [2, num_edges]
            sender, receiver = pairs
            return torch.zeros_like(h).scatter_add(0, receiver, h)
    """
    assert codes(code) == ["GL001"]
    sender, receiver = torch.randint(0, 4, (2, 7))
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.zeros(4, 3).scatter_add(0, receiver, torch.randn(4, 3))


def test_unpacked_rows_keep_the_dtype_of_a_float_pair_tensor(torch):
    code = """
    import torch
    from jaxtyping import Float
    from torch import Tensor
    def pool(feats: Float[Tensor, "n d"], pairs: Float[Tensor, "2 m"]):
        first, second = pairs
        return feats.index_select(0, second)
    """
    assert codes(code) == ["GL008"]
    first, second = torch.zeros(2, 3)
    with pytest.raises(RuntimeError, match="int32 or int64"):
        torch.randn(4, 2).index_select(0, second)


def test_unpacking_into_a_count_the_tensor_does_not_have_binds_nothing():
    code = """
    import torch
    def f(x):
        pts = torch.randn(3, 5)
        a, b = pts  # raises in torch: not the linter's concern, and no rows are bound
        return x.gather(0, a)
    """
    assert codes(code) == []


def test_unpacked_rows_through_a_docstring_helper_called_by_a_driver(torch):
    code = '''
    import torch
    def spread(values, links):
        """
        Args:
            values: (num_nodes, hidden) node states.
            links: (2, num_links) ids.
        """
        src_ids, dst_ids = links
        return torch.zeros(values.shape).scatter_add_(0, dst_ids[:, None].expand(-1, values.size(1)), values)
    if __name__ == "__main__":
        spread(torch.randn(5, 8), torch.randint(0, 5, (2, 12)))
    '''
    assert "GL003" in codes(code)


# ----- roll / flip move values: shape, dtype and what the values index stay ------------------------

def test_rolled_labels_keep_their_shape(torch):
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor
    def nll(logp: Float[Tensor, "b t v"], labels: Int[Tensor, "b t"]):
        nxt = torch.roll(labels, shifts=-1, dims=1)
        return logp.gather(-1, nxt)
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(2, 5, 7).gather(-1, torch.roll(torch.randint(0, 7, (2, 5)), -1, 1))


def test_flipped_float_positions_are_still_float(torch):
    code = """
    import torch
    class Reverser(torch.nn.Module):
        def forward(self, seq):
            # seq: [B, T, D]
            order = torch.arange(seq.size(1)).float()
            return seq.index_select(1, order.flip(0))
    """
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="int32 or int64"):
        torch.randn(2, 3, 4).index_select(1, torch.arange(3).float().flip(0))


# ----- torch.cat with a piece of unknown shape: the known pieces fix the other sizes ----------------

def test_cat_with_an_unknown_piece_keeps_rank_and_off_axis_sizes(torch):
    code = """
    import torch
    def with_loops(edge_index, n):
        loops = torch.arange(n).repeat(2, 1)
        return torch.cat([edge_index, loops], dim=1)
    def degree(edge_index, feats):
        # feats: [N, H]
        full = with_loops(edge_index, feats.size(0))
        return feats.gather(0, full)
    """
    assert codes(code) == []  # full is [2, ?] and feats [N, H]: ranks agree, sizes unknown
    code_3d = code.replace("# feats: [N, H]", "# feats: [N, H, K]")
    assert codes(code_3d) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(4, 3, 2).gather(0, torch.cat([torch.zeros(2, 3, dtype=torch.long), torch.arange(4).repeat(2, 1)], 1))


def test_stack_with_an_unknown_piece_knows_its_rank(torch):
    code = """
    import torch
    def pairs(a, scores):
        # scores: [B, K]
        b = torch.zeros(5, dtype=torch.long)
        both = torch.stack([a, b], dim=0)
        return scores.gather(1, both.unsqueeze(0))
    """
    assert codes(code) == ["GL001"]


# ----- calls nested deeper than the caller-facts limit still give the callee's own result -----------

def test_a_call_past_the_depth_limit_returns_the_callees_summary(torch):
    code = """
    import torch
    import torch.nn as nn
    class Pooler(nn.Module):
        def positions(self, x):
            return x.float()
        def level3(self, x):
            return self.positions(x)
        def level2(self, x):
            return self.level3(x)
        def level1(self, x):
            return self.level2(x)
        def forward(self, table, ids):
            return table.index_select(0, self.level1(ids))
    if __name__ == "__main__":
        Pooler()(torch.randn(5, 2), torch.randint(0, 5, (3,)))
    """
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="int32 or int64"):
        torch.randn(5, 2).index_select(0, torch.randint(0, 5, (3,)).float())
