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


# ----- torch.einsum: the output letters take their operands' sizes ---------------------------------

def test_topk_over_einsum_scores_reaches_the_gather(torch):
    code = '''
    import torch
    import torch.nn as nn
    class SlotReader(nn.Module):
        def forward(self, query, slot_keys, slot_vals):
            """
            Args:
                query: (batch, width)
                slot_keys: (batch, n_slots, width)
                slot_vals: (batch, n_slots, width)
            """
            scores = torch.einsum("bw,bnw->bn", query, slot_keys)
            best = scores.topk(2, dim=-1).indices
            return slot_vals.gather(1, best.unsqueeze(-1))
    if __name__ == "__main__":
        SlotReader()(torch.randn(3, 5), torch.randn(3, 7, 5), torch.randn(3, 7, 5))
    '''
    assert codes(code) == ["GL005"]
    vals = torch.randn(3, 7, 5)
    best = torch.einsum("bw,bnw->bn", torch.randn(3, 5), torch.randn(3, 7, 5)).topk(2, dim=-1).indices
    out = vals.gather(1, best.unsqueeze(-1))
    assert out.shape == (3, 2, 1)  # silently reads only feature 0 of every chosen slot
    assert torch.equal(out[..., 0], vals[torch.arange(3)[:, None], best, 0])


def test_einsum_operands_in_a_list_and_implicit_output(torch):
    code = """
    import torch
    def route(tokens, experts, picks):
        # tokens: [T, D]  experts: [E, D]  picks: [T, 1, 1]
        logits = torch.einsum("td,ed", [tokens, experts])
        return logits.gather(1, picks)
    """
    assert codes(code) == ["GL001"]
    assert torch.einsum("td,ed", [torch.randn(4, 3), torch.randn(5, 3)]).shape == (5, 4)  # implicit output: letters used once, sorted (e, t)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.einsum("td,ed", [torch.randn(4, 3), torch.randn(5, 3)]).gather(1, torch.zeros(4, 1, 1, dtype=torch.long))


def test_einsum_with_ellipsis_or_wrong_rank_stays_unknown():
    code = """
    import torch
    from jaxtyping import Float
    from torch import Tensor
    def f(a: Float[Tensor, "b n d"], b: Float[Tensor, "b m d"], idx):
        s = torch.einsum("...nd,...md->...nm", a, b)
        t = torch.einsum("ij,jk->ik", a, b)
        return s.gather(-1, idx.view(1, 1, 1, 1)), t.gather(0, idx.view(1))
    """
    assert codes(code) == []


# ----- layers passed to functions: `def predict(model, x): return model(x)` -------------------------

def test_a_linear_layer_passed_to_a_helper(torch):
    code = """
    import torch
    import torch.nn as nn
    def chosen(net, obs, act):
        return net(obs).gather(1, act)
    if __name__ == "__main__":
        head = nn.Linear(8, 4)
        chosen(head, torch.randn(16, 8), torch.randint(0, 4, (16,)))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        nn = torch.nn
        nn.Linear(8, 4)(torch.randn(16, 8)).gather(1, torch.randint(0, 4, (16,)))


def test_a_sequential_from_a_factory_reaches_a_method(torch):
    code = """
    import torch
    import torch.nn as nn
    def make_policy(cfg):
        return nn.Sequential(nn.Linear(cfg["obs"], cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], cfg["acts"]))
    class Learner:
        def logp_of(self, policy, states, actions):
            logp = policy(states).log_softmax(-1)
            return logp.gather(-1, actions.unsqueeze(-1).unsqueeze(-1))
    if __name__ == "__main__":
        cfg = {"obs": 6, "hidden": 16, "acts": 3}
        Learner().logp_of(make_policy(cfg), torch.randn(10, 6), torch.randint(0, 3, (10,)))
    """
    assert codes(code) == ["GL001"]


def test_a_layer_attribute_handed_to_a_module_function(torch):
    code = """
    import torch
    import torch.nn as nn
    from jaxtyping import Float
    from torch import Tensor
    def pick(layer, hidden, slot):
        return layer(hidden).gather(-1, slot)
    class Critic(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(32, 5)
        def forward(self, h: Float[Tensor, "B 32"], a: Float[Tensor, "B"]):
            return pick(self.head, h, a.long())
    """
    assert codes(code) == ["GL001"]


def test_a_layer_whose_output_fits_stays_silent():
    code = """
    import torch
    import torch.nn as nn
    def chosen(net, obs, act):
        return net(obs).gather(1, act.unsqueeze(1)).squeeze(1)
    if __name__ == "__main__":
        chosen(nn.Linear(8, 4), torch.randn(16, 8), torch.randint(0, 4, (16,)))
    """
    assert codes(code) == []


# ----- `table[ids]`: one row of table per id ----------------------------------------------------------

def test_rows_looked_up_by_an_integer_tensor(torch):
    code = """
    import torch
    def reward_of(contexts, arms, weights):
        # contexts: [B, C]  arms: [B]  weights: [A, C]
        w = weights[arms.long()]
        r = (w * contexts).sum(-1)
        return r.gather(0, arms.long().view(-1, 1))
    """
    assert codes(code) == ["GL001"]
    w = torch.randn(3, 4)[torch.randint(0, 3, (5,))]
    assert w.shape == (5, 4)


def test_rows_kept_by_a_bool_mask_keep_the_trailing_dims(torch):
    code = """
    import torch
    from jaxtyping import Bool, Float, Int
    from torch import Tensor
    def kept(feats: Float[Tensor, "n d"], keep: Bool[Tensor, "n"], cols: Int[Tensor, "m"]):
        rows = feats[keep]
        return rows.gather(1, cols)
    """
    assert codes(code) == ["GL001"]
    assert torch.randn(6, 3)[torch.tensor([1, 0, 1, 0, 0, 1]).bool()].shape == (3, 3)


def test_a_lookup_by_an_index_of_unknown_dtype_stays_unknown():
    code = """
    import torch
    def f(table, keys, cols):
        # table: [N, D]  keys: [K]  cols: [K]
        return table[keys].gather(1, cols)
    """
    assert codes(code) == []


# ----- GL006 on the gather whose column a helper broadcasts ---------------

def test_kept_singleton_passed_to_a_loss_helper_is_reported_on_its_gather(torch):
    code = """
    import torch
    def sq_error(pred, target):
        return ((pred - target) ** 2).mean()
    def step(q, actions, returns):
        chosen = q.gather(1, actions.unsqueeze(1))
        return sq_error(chosen, returns)
    if __name__ == "__main__":
        step(torch.randn(32, 4), torch.randint(0, 4, (32,)), torch.randn(32))
    """
    found = lint(code)
    # on the gather, where the squeeze belongs, naming the helper's line where the column meets [32]
    assert [(f.code, f.line) for f in found] == [("GL006", 6)]
    assert "at line 4" in found[0].message
    chosen = torch.randn(32, 4).gather(1, torch.randint(0, 4, (32,)).unsqueeze(1))
    assert (chosen - torch.randn(32)).shape == (32, 32)  # silently broadcast


# ----- nn.ModuleList of one layer kind: iterating or indexing it gives that layer --------------------

def test_an_ensemble_stacked_from_a_module_list(torch):
    code = """
    import torch
    import torch.nn as nn
    class Heads(nn.Module):
        def __init__(self, d_in, n_out, n_heads=3):
            super().__init__()
            self.heads = nn.ModuleList([nn.Linear(d_in, n_out) for _ in range(n_heads)])
        def forward(self, x):
            return torch.stack([head(x) for head in self.heads], dim=0)
    def pick(values, choice):
        return values.gather(-1, choice.unsqueeze(-1))
    if __name__ == "__main__":
        pick(Heads(8, 4)(torch.randn(16, 8)), torch.randint(0, 4, (16,)))
    """
    assert codes(code) == ["GL001"]
    nn = torch.nn
    heads = nn.ModuleList([nn.Linear(8, 4) for _ in range(3)])
    values = torch.stack([h(torch.randn(16, 8)) for h in heads], dim=0)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        values.gather(-1, torch.randint(0, 4, (16,)).unsqueeze(-1))


def test_a_module_list_from_a_generator_indexed_and_looped(torch):
    code = """
    import torch
    import torch.nn as nn
    from jaxtyping import Float, Int
    from torch import Tensor
    class Tower(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList(nn.Linear(6, 6) for _ in range(2))
        def forward(self, h: Float[Tensor, "n 6"], slots: Int[Tensor, "n"]):
            for block in self.blocks:
                h = block(h)
            first = self.blocks[0](h)
            return first.gather(1, slots), h.gather(1, slots)
    """
    assert codes(code) == ["GL001", "GL001"]


def test_a_module_list_of_different_layers_is_not_one_layer():
    code = """
    import torch
    import torch.nn as nn
    class Mixed(nn.Module):
        def __init__(self):
            super().__init__()
            self.parts = nn.ModuleList([nn.Linear(6, 6), nn.Linear(6, 3)])
        def forward(self, h, slots):
            # h: [N, 6]  slots: [N, 1]
            for part in self.parts:
                h = part(h)
            return h.gather(1, slots)
    """
    assert codes(code) == []


# ----- a generator of tensors unpacked into names ----------------------------------------------------

def test_projections_unpacked_from_a_generator(torch):
    code = """
    import torch
    def heads(x, n):
        b, t, d = x.shape
        return x.view(b, t, n, d // n).transpose(1, 2)
    def attend(x, weights, keep):
        # x: [B, T, D]  keep: [B, K]
        q, k, v = (heads(x @ w, 4) for w in weights)
        index = keep[:, None, :, None].expand(-1, -1, -1, k.size(-1))
        return k.gather(2, index)
    if __name__ == "__main__":
        attend(torch.randn(2, 10, 16), [torch.randn(16, 16) for _ in range(3)], torch.randint(0, 10, (2, 3)))
    """
    assert codes(code) == ["GL005"]
    k = torch.randn(2, 10, 16).view(2, 10, 4, 4).transpose(1, 2)
    keep = torch.randint(0, 10, (2, 3))
    out = k.gather(2, keep[:, None, :, None].expand(-1, -1, -1, 4))
    assert out.shape == (2, 1, 3, 4)  # only head 0 is read, silently


# ----- `if a.shape != b.shape:` is settled by ranks or sizes that must differ --------------------------

def test_a_shape_comparison_with_another_rank_is_certain(torch):
    code = """
    import torch
    def chosen(values, choice):
        if choice.shape != values.shape:
            choice = choice.unsqueeze(-1)
        return values.gather(-1, choice)
    if __name__ == "__main__":
        chosen(torch.randn(2, 16, 4), torch.randint(0, 4, (16,)))
    """
    assert codes(code) == ["GL001"]


def test_a_shape_comparison_with_unknown_sizes_is_not_settled():
    code = """
    import torch
    def chosen(values, choice, n, m):
        shaped = choice.view(n, 1)
        if shaped.shape == (m, 1):
            shaped = shaped.squeeze(-1)
        return values.gather(-1, shaped)
    """
    assert codes(code) == []  # n and m unknown: either branch may run


# ----- a loop that keeps a tensor's shape keeps the tensor: `for layer in layers: h = layer(h)` -----

def test_hidden_state_through_a_loop_of_layers(torch):
    code = """
    import torch
    import torch.nn as nn
    class Encoder(nn.Module):
        def __init__(self, width, depth):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
            self.out = nn.Linear(width, 10)
        def forward(self, x, labels):
            for layer in self.layers:
                x = torch.relu(layer(x))
            logits = self.out(x)
            return logits.gather(1, labels)
    if __name__ == "__main__":
        Encoder(32, 3)(torch.randn(4, 32), torch.randint(0, 10, (4,)))
    """
    assert codes(code) == ["GL001"]


def test_a_loop_of_refinement_steps_in_a_plain_function(torch):
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor
    def refine(scores: Float[Tensor, "b k"], steps: int, picks: Int[Tensor, "b"]):
        for _ in range(steps):
            scores = scores.softmax(-1) * 2.0
        return scores.gather(-1, picks)
    """
    assert codes(code) == ["GL001"]


def test_a_loop_that_grows_a_tensor_forgets_it():
    code = """
    import torch
    def decode(tokens, steps, scores):
        # tokens: [B, 1]  scores: [B, V]
        for _ in range(steps):
            tokens = torch.cat([tokens, tokens[:, -1:]], dim=1)
        return scores.gather(1, tokens)
    """
    assert codes(code) == []  # tokens is [B, ?] after the loop: no rank or size to compare


def test_a_loop_whose_other_names_change_the_shape_forgets_it():
    code = """
    import torch
    def f(h, idx, n):
        # h: [4, 8]  idx: [4]
        for _ in range(3):
            h = h.view(n, -1)
            n = n * 2
        return h.gather(1, idx)
    """
    assert codes(code) == []


def test_a_finding_inside_the_loop_body_is_reported_once():
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor
    def f(h: Float[Tensor, "4 8"], idx: Int[Tensor, "4"]):
        for _ in range(3):
            h = h * 0.5
            picked = h.gather(1, idx)
        return h
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL001"]  # the trial run of the body reports nothing


# ----- NumPy arrays keep their dtype into torch: float64 indices from np.zeros / np.array([]) --------

def test_indices_accumulated_onto_an_empty_numpy_array(torch):
    np = pytest.importorskip("numpy")
    code = """
    import numpy as np
    import torch
    def rows_of(labels, wanted):
        found = np.array([])
        for w in wanted:
            found = np.concatenate([found, np.flatnonzero(labels == w)])
        return found
    def select(feats, labels, wanted):
        return feats.index_select(0, torch.from_numpy(rows_of(labels, wanted)))
    """
    assert codes(code) == ["GL008"]
    found = np.concatenate([np.array([]), np.flatnonzero(np.array([0, 1, 1]) == 1)])
    assert found.dtype == np.float64
    with pytest.raises(RuntimeError, match="int32 or int64"):
        torch.randn(3, 2).index_select(0, torch.from_numpy(found))


def test_numpy_zeros_as_a_gather_index_in_a_method(torch):
    np = pytest.importorskip("numpy")
    code = """
    import numpy as np
    import torch
    import torch.nn as nn
    class Sampler(nn.Module):
        def forward(self, logits):
            # logits: [B, V]
            picks = np.zeros((logits.shape[0], 1))
            return logits.gather(1, torch.as_tensor(picks))
    """
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="int32/int64"):
        torch.randn(2, 5).gather(1, torch.as_tensor(np.zeros((2, 1))))


def test_numpy_dtypes_that_fit_stay_silent():
    pytest.importorskip("numpy")
    code = """
    import numpy as np
    import torch
    def f(x, n):
        # x: [N, D]
        a = torch.from_numpy(np.arange(n))
        b = torch.from_numpy(np.zeros(n).astype(np.int64))
        c = torch.from_numpy(np.random.permutation(n))
        d = torch.tensor(np.zeros(n), dtype=torch.long)
        e = torch.from_numpy(np.array([], dtype=int))
        return x.index_select(0, a), x.index_select(0, b), x.index_select(0, c), x.index_select(0, d), x.index_select(0, e)
    """
    assert codes(code) == []


def test_linspace_positions_from_a_helper_through_a_driver(torch):
    np = pytest.importorskip("numpy")
    code = """
    import numpy as np
    import torch
    def frame_positions(n_frames, n_keep):
        return np.linspace(0, n_frames - 1, n_keep).round()
    def keyframes(video, n_keep):
        pos = torch.from_numpy(frame_positions(video.shape[0], n_keep))
        return torch.index_select(video, 0, pos)
    if __name__ == "__main__":
        keyframes(torch.randn(30, 3, 8, 8), 4)
    """
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="int32 or int64"):
        torch.index_select(torch.randn(30, 3), 0, torch.from_numpy(np.linspace(0, 29, 4).round()))


# ----- Linear / Embedding with an unknown input size still know their output size --------------------

def test_a_linear_head_of_unknown_input_width(torch):
    code = """
    import torch
    import torch.nn as nn
    class QHead(nn.Module):
        def __init__(self, hidden):
            super().__init__()
            self.q = nn.Linear(hidden, 6)
        def forward(self, h, actions):
            # actions: [B]
            return self.q(h).gather(1, actions)
    """
    assert codes(code) == []  # h unknown: the output's rank is unknown too
    with_h = code.replace("# actions: [B]", "# h: [B, H]  actions: [B]")
    assert codes(with_h) == ["GL001"]


# ----- a network built from unknown sizes still runs its forward on the call's tensors ---------------

def test_a_q_network_built_from_a_config_object(torch):
    code = """
    import torch
    import torch.nn as nn
    from jaxtyping import Float, Int
    from torch import Tensor
    class QNet(nn.Module):
        def __init__(self, obs_dim, n_actions):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
        def forward(self, obs):
            return self.body(obs)
    class Agent(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.q_net = QNet(cfg.obs_dim, cfg.n_actions)
        def td(self, obs: Float[Tensor, "B D"], actions: Int[Tensor, "B"]):
            q = self.q_net(obs)
            return q.gather(1, actions)
    if __name__ == "__main__":
        Agent(object())
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.nn.Linear(4, 3)(torch.randn(5, 4)).gather(1, torch.randint(0, 3, (5,)))


def test_a_network_with_unknown_sizes_and_a_fitting_index_is_silent():
    code = """
    import torch
    import torch.nn as nn
    class Policy(nn.Module):
        def __init__(self, sizes):
            super().__init__()
            self.net = nn.Linear(sizes[0], sizes[1])
        def forward(self, x):
            return self.net(x)
    def logp(policy: Policy, states, acts):
        # states: [B, S]  acts: [B]
        return policy(states).log_softmax(-1).gather(1, acts.unsqueeze(1)).squeeze(1)
    if __name__ == "__main__":
        logp(Policy([3, 2]), torch.randn(4, 3), torch.randint(0, 2, (4,)))
    """
    assert codes(code) == []


# ----- in a script, a helper called with comment-shaped tensors returns a shaped result to its caller --

def test_a_helper_result_takes_the_callers_comment_shapes(torch):
    code = """
    import torch
    def normalise(scores):
        return scores.log_softmax(dim=-1)
    def pick(logits, labels):
        # logits: [B, T, V]  labels: [B, T]
        logp = normalise(logits)
        return logp.gather(-1, labels)
    if __name__ == "__main__":
        pick(load_logits(), load_labels())
    """
    assert codes(code) == ["GL001"]
    library = code.split("if __name__")[0]
    assert codes(library) == []  # in a library (no driver) the re-run is skipped: too many commented calls
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(2, 3, 5).log_softmax(-1).gather(-1, torch.randint(0, 5, (2, 3)))


def test_a_method_result_takes_the_callers_comment_shapes(torch):
    code = """
    import torch
    import torch.nn as nn
    class Scorer(nn.Module):
        def project(self, h):
            return h.transpose(1, 2)
        def forward(self, hidden, slots):
            # hidden: [B, L, D]  slots: [B, K, 1]
            flipped = self.project(hidden)
            return flipped.gather(2, slots.expand(-1, -1, 4))
    if __name__ == "__main__":
        Scorer()(load_hidden(), load_slots())
    """
    assert codes(code) == []  # [B, D, L] vs [B, K, 4]: sizes unknown, no finding
    wrong = code.replace("slots.expand(-1, -1, 4)", "slots.squeeze(-1)")
    assert codes(wrong) == ["GL001"]


def test_comment_shapes_are_not_checked_inside_the_helper():
    code = """
    import torch
    def helper(x, idx):
        return x.gather(1, idx)
    def caller(feats, ids):
        # feats: [N, D]  ids: [N]
        return helper(feats, ids)
    """
    assert codes(code) == []  # the helper is checked with what code proves, not with the comment


# ----- @dataclass configs: fields and their defaults reach the layers and tensors built from them ------

def test_dataclass_config_sizes_reach_a_layer(torch):
    code = """
    from dataclasses import dataclass
    import torch
    import torch.nn as nn
    @dataclass
    class HeadConfig:
        width: int = 8
        classes: int = 5
    class Head(nn.Module):
        def __init__(self, cfg: HeadConfig):
            super().__init__()
            self.proj = nn.Linear(cfg.width, cfg.classes)
        def forward(self, feats, target):
            return self.proj(feats).log_softmax(-1).gather(1, target)
    if __name__ == "__main__":
        cfg = HeadConfig(classes=3)
        Head(cfg)(torch.randn(4, cfg.width), torch.randint(0, cfg.classes, (4,)))
    """
    assert codes(code) == ["GL001"]


def test_dataclass_tuple_field_spliced_into_a_size(torch):
    code = """
    from dataclasses import dataclass
    import torch
    @dataclass
    class Spec:
        n: int = 4
        trailing: tuple = (1,)
    def make(spec: Spec, size: int):
        return torch.randint(0, spec.n, (size, *spec.trailing))
    def pick(q, spec):
        acts = make(spec, 16)
        return q.gather(-1, acts.unsqueeze(-1))
    if __name__ == "__main__":
        pick(torch.randn(16, 4), Spec())
    """
    assert codes(code) == ["GL001"]
    acts = torch.randint(0, 4, (16, 1))
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(16, 4).gather(-1, acts.unsqueeze(-1))


def test_a_dataclass_with_its_own_init_or_unknown_fields_stays_unknown():
    code = """
    from dataclasses import dataclass, field
    import torch
    @dataclass
    class Cfg:
        sizes: list = field(default_factory=list)
        n: int = 2
    def f(q, cfg):
        idx = torch.zeros(cfg.sizes, dtype=torch.long)
        return q.gather(1, idx)
    if __name__ == "__main__":
        f(torch.randn(3, 4), Cfg(sizes=[3, 1]))
    """
    assert codes(code) == []


# ----- `f(*batch)` with a tracked tuple passes its items --------------------------------------------

def test_a_sampled_batch_spread_into_a_loss(torch):
    code = """
    import torch
    import torch.nn as nn
    class Buffer:
        def __init__(self, size):
            self.obs = torch.randn(size, 3)
            self.act = torch.randint(0, 4, (size, 1))
        def sample(self, idx):
            return self.obs[idx], self.act[idx]
    class Loss(nn.Module):
        def __init__(self):
            super().__init__()
            self.q = nn.Linear(3, 4)
        def forward(self, obs, act):
            return self.q(obs).gather(1, act.unsqueeze(-1))
    if __name__ == "__main__":
        batch = Buffer(32).sample(torch.randint(0, 32, (8,)))
        Loss()(*batch)
    """
    assert codes(code) == ["GL001"]


# ----- a rank the caller's code proves wins over a parameter's annotation --------------------------

def test_an_annotation_contradicted_by_the_callers_tensor(torch):
    code = '''
    import torch
    def chosen(q, act):
        """
        Args:
            q: (batch, n_actions)
            act: (batch,) action ids
        """
        return q.gather(1, act.unsqueeze(1))
    if __name__ == "__main__":
        chosen(torch.randn(8, 4), torch.randint(0, 4, (8, 1)))
    '''
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(8, 4).gather(1, torch.randint(0, 4, (8, 1)).unsqueeze(1))


def test_an_annotation_agreeing_in_rank_keeps_its_names():
    code = '''
    import torch
    def chosen(q, act):
        """
        Args:
            q: (batch, n_actions)
            act: (batch,) action ids
        """
        return q.gather(1, act.unsqueeze(1)).squeeze(1)
    if __name__ == "__main__":
        chosen(torch.randn(8, 4), torch.randint(0, 4, (8,)))
    '''
    assert codes(code) == []


# ----- lists of tensors: appended in a loop and stacked; chunk / split unpacked ------------------------

def test_per_step_values_appended_then_stacked(torch):
    code = """
    import torch
    def rollout(logits, actions):
        # logits: [B, T, A]  actions: [B, T]
        picked = []
        for t in range(logits.size(1)):
            picked.append(logits[:, t].gather(1, actions[:, t].unsqueeze(1)))
        out = torch.stack(picked, dim=1)
        return out.gather(2, actions)
    """
    assert codes(code) == ["GL001"]  # out is [B, ?, 1, ...] rank 3, actions rank 2
    picked = [torch.randn(2, 5)[:, None] for _ in range(3)]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.stack(picked, dim=1).gather(2, torch.zeros(2, 3, dtype=torch.long))


def test_a_list_appended_with_different_shapes_is_unknown():
    code = """
    import torch
    def f(x, idx):
        # x: [B, T, D]  idx: [B, 2]
        parts = []
        parts.append(x[:, 0])
        parts.append(x)
        return torch.stack(parts).gather(1, idx)
    """
    assert codes(code) == []


def test_chunked_halves_keep_their_sizes(torch):
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor
    def gate(h: Float[Tensor, "b t 8"], pos: Int[Tensor, "b t"]):
        value, gate_logits = h.chunk(2, dim=-1)
        first, rest = torch.split(h, [3, 5], dim=-1)
        return value.gather(-1, pos), rest.gather(1, pos.unsqueeze(-1).expand(-1, -1, 6))
    """
    assert sorted(codes(code)) == ["GL001", "GL003"]
    value, _ = torch.randn(2, 3, 8).chunk(2, dim=-1)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        value.gather(-1, torch.zeros(2, 3, dtype=torch.long))
    _, rest = torch.split(torch.randn(2, 3, 8), [3, 5], dim=-1)
    assert rest.shape == (2, 3, 5)
    with pytest.raises(RuntimeError, match="no larger"):  # 6 > 5 on a dim other than the gathered one
        rest.gather(1, torch.zeros(2, 3, 6, dtype=torch.long))


# ----- recurrent cells and convolutions ---------------------------------------------------------------

def test_a_gru_cell_step_in_a_decoder_loop(torch):
    code = """
    import torch
    import torch.nn as nn
    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = nn.GRUCell(16, 32)
            self.out = nn.Linear(32, 10)
        def forward(self, x, h, target):
            # x: [B, 16]  h: [B, 32]  target: [B]
            h = self.cell(x, h)
            return self.out(h).log_softmax(-1).gather(1, target)
    """
    assert codes(code) == ["GL001"]
    h = torch.nn.GRUCell(16, 32)(torch.randn(4, 16), torch.randn(4, 32))
    assert h.shape == (4, 32)


def test_an_lstm_cell_returns_two_states(torch):
    code = """
    import torch
    import torch.nn as nn
    class Stepper(nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = nn.LSTMCell(8, 12)
        def step(self, x, state, pick):
            # x: [B, 8]  pick: [B]
            h, c = self.cell(x, state)
            return h.gather(1, pick)
    """
    assert codes(code) == ["GL001"]


def test_a_conv_keeps_rank_and_computes_sizes(torch):
    code = """
    import torch
    import torch.nn as nn
    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 7, kernel_size=3, stride=2, padding=1)
        def forward(self, img, idx):
            # img: [B, 3, 32, 32]  idx: [B, 7, 16, 1]
            heat = self.conv(img)
            return heat.gather(3, idx.expand(-1, -1, 17, -1))
    """
    assert codes(code) == ["GL003"]
    heat = torch.nn.Conv2d(3, 7, kernel_size=3, stride=2, padding=1)(torch.randn(2, 3, 32, 32))
    assert heat.shape == (2, 7, 16, 16)
    with pytest.raises(RuntimeError, match="no larger"):
        heat.gather(3, torch.zeros(2, 7, 17, 1, dtype=torch.long))


def test_a_conv_sized_by_a_config_entry_through_a_local_name(torch):
    # `p = cfg["patch"]` is a name whose value the config gives: the kernel and stride are 4, the map 8 x 8
    code = """
    import torch
    import torch.nn as nn
    CFG = {"patch": 4}
    class Tower(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            p = cfg["patch"]
            self.proj = nn.Conv2d(3, 5, kernel_size=p, stride=p)
        def forward(self, img, idx):
            return self.proj(img).flatten(2).gather(2, idx)
    if __name__ == "__main__":
        out = Tower(CFG)(torch.randn(2, 3, 32, 32), torch.full((2, 5, 1), 64))
    """
    assert codes(code) == ["GL011"]
    grid = torch.nn.Conv2d(3, 5, kernel_size=4, stride=4)(torch.randn(2, 3, 32, 32)).flatten(2)
    assert grid.shape == (2, 5, 64)
    with pytest.raises(RuntimeError, match="out of bounds"):
        grid.gather(2, torch.full((2, 5, 1), 64))


def test_a_conv_with_unknown_sizes_keeps_only_what_is_certain():
    code = """
    import torch
    import torch.nn as nn
    class Head(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.conv = nn.Conv1d(4, 6, kernel_size=k)
        def forward(self, seq, idx):
            # seq: [B, 4, L]  idx: [B, 6, 1]
            return self.conv(seq).gather(2, idx)
    """
    assert codes(code) == []


# ----- `for t in range(T)`: t is an int, so x[:, t] drops the dim ----------------------------------

def test_a_range_position_drops_the_dim(torch):
    code = """
    import torch
    def per_step(scores, choice, steps):
        # scores: [B, T, V]  choice: [B, T]
        total = 0
        for t in range(steps):
            total = total + scores[:, t].gather(1, choice[:, t])
        return total
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(2, 3, 4)[:, 0].gather(1, torch.zeros(2, 3, dtype=torch.long)[:, 0])


def test_a_while_loop_that_keeps_the_state_shape(torch):
    code = """
    import torch
    import torch.nn as nn
    class Greedy(nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = nn.GRUCell(4, 4)
        def forward(self, x, h, steps, tok):
            # x: [B, 4]  h: [B, 4]  tok: [B]
            n = 0
            while n < steps:
                h = self.cell(x, h)
                n += 1
            return h.gather(1, tok)
    """
    assert codes(code) == ["GL001"]
