"""Facts that cross function boundaries, and dtypes and value ranges made by common idioms.
Each claim a rule makes from them is checked in torch."""
import pytest

from .conftest import codes, lint


@pytest.mark.parametrize("make", [
    "parent = order / width",
    "parent = torch.div(order, width)",
    "parent = order.div(width)",
    "parent = order.true_divide(width)",
])
def test_true_division_of_integer_positions_by_an_unknown_is_float(torch, make):
    code = f"""
    import torch
    def step(rows, scores, width):
        _, order = scores.view(-1).topk(3)
        {make}
        return rows.index_select(0, parent)
    """
    assert codes(code) == ["GL008"], make
    order, width = torch.tensor([5, 2, 7]), 4
    assert (order / width).dtype == torch.div(order, width).dtype == torch.float32
    with pytest.raises(RuntimeError):
        torch.randn(3, 2).index_select(0, order / width)


@pytest.mark.parametrize("make", [
    "parent = torch.div(order, width, rounding_mode='floor')",
    "parent = order.div(width, rounding_mode='trunc')",
    "parent = order // width",
])
def test_rounded_division_stays_integer(torch, make):
    code = f"""
    import torch
    def step(rows, scores, width):
        _, order = scores.view(-1).topk(3)
        {make}
        return rows.index_select(0, parent)
    """
    assert codes(code) == [], make
    assert torch.div(torch.tensor([5]), 4, rounding_mode="floor").dtype == torch.int64


def test_dtype_crosses_a_call_even_when_the_shape_came_from_a_comment(torch):
    code = """
    import torch
    class Searcher:
        def __init__(self, n_words):
            self.n_words = n_words

        def pick(self, states, parent):
            return states.index_select(0, parent)

        def step(self, scores, states):
            flat = scores.view(scores.size(0), -1)  # (batch, beams * words)
            _, best = flat.max(-1)
            parent = best / self.n_words  # (batch,)
            return self.pick(states, parent)
    """
    found = lint(code)
    assert [f.code for f in found] == ["GL008"]
    assert "call at line" in found[0].message and found[0].line == 8
    assert (torch.tensor([9]) / 4).dtype == torch.float32


def test_a_comment_shape_does_not_cross_a_call():
    # the shape [N] on `picks` is a comment's word; inside `pick` it must not meet `rows`' own shape
    code = """
    import torch
    def pick(rows, picks):
        return rows.gather(0, picks.unsqueeze(1))

    def caller(load):
        rows = torch.randn(10, 128)
        picks = load()  # [N]
        return pick(rows, picks)
    """
    assert codes(code) == []


def test_padding_from_a_default_argument_reaches_a_gather_through_calls(torch):
    # the padded batch is built by a helper whose fill value is a default, then gathered two calls away
    code = """
    import torch
    def collate(rows, fill: int = -1):
        batch = torch.full((len(rows), 6), fill, dtype=torch.long)
        for i, r in enumerate(rows):
            batch[i, : r.numel()] = r
        return batch

    def lookup(table, ids):
        return table.gather(1, ids)

    def score(table, ids):
        return lookup(table, ids).sum()

    if __name__ == "__main__":
        table = torch.randn(2, 10)
        ids = collate([torch.arange(4), torch.arange(6)])
        score(table, ids)
    """
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL011", 10)]
    assert "call at line" in found[0].message
    padded = torch.full((2, 6), -1, dtype=torch.long)
    padded[0, :4] = torch.arange(4)
    padded[1, :6] = torch.arange(6)
    with pytest.raises(RuntimeError):
        torch.randn(2, 10).gather(1, padded)


def test_a_default_overridden_by_the_call_is_not_used():
    code = """
    import torch
    def collate(n, fill: int = -1):
        return torch.full((2, n), fill, dtype=torch.long)

    def lookup(table, ids):
        return table.gather(1, ids)

    if __name__ == "__main__":
        lookup(torch.randn(2, 10), collate(6, fill=0))
        lookup(torch.randn(2, 10), collate(6, 0))
    """
    assert codes(code) == []


def test_positions_written_through_an_index_tensor_replace_the_padding(torch):
    # an inverse permutation: every -1 slot is overwritten by `inv[perm] = arange(n)`
    code = """
    import torch
    def inverse(perm):
        inv = torch.full((perm.numel(),), -1, dtype=torch.long)
        inv[perm] = torch.arange(perm.numel())
        return inv

    def restore(x, perm):
        return x.index_select(0, inverse(perm))
    """
    assert codes(code) == []
    perm = torch.randperm(5)
    inv = torch.full((5,), -1, dtype=torch.long)
    inv[perm] = torch.arange(5)
    assert (inv >= 0).all()


def test_methods_of_two_classes_with_one_name_are_summarised_apart():
    code = """
    import torch
    class Wide:
        def forward(self, x):
            return torch.zeros(x.size(0), 8)

    class Narrow:
        def forward(self, x):
            return torch.zeros(x.size(0), 1)

    def pick(a, b, idx):
        return a.gather(1, idx), b.gather(1, idx)
    """
    assert codes(code) == []


def test_shapes_from_a_driver_reach_three_calls_deep(torch):
    # a script builds its tensors with constructors; the gather sits three helpers below
    code = """
    import torch
    def rows_at(table, picks):
        return table.gather(1, picks.unsqueeze(2))

    def per_position(maps, picks):
        return rows_at(maps.flatten(2).transpose(1, 2), picks)

    def decode(maps, scores, k):
        _, picks = scores.flatten(1).topk(k)
        return per_position(maps, picks)

    if __name__ == "__main__":
        decode(torch.randn(2, 4, 8, 8), torch.randn(2, 1, 8, 8), 3)
    """
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL005", 4)]
    maps, picks = torch.randn(2, 4, 8, 8), torch.randint(0, 64, (2, 3))
    table = maps.flatten(2).transpose(1, 2)
    assert table.gather(1, picks.unsqueeze(2)).shape == (2, 3, 1)  # reads channel 0 only


def test_a_call_without_facts_reports_the_callees_own_findings_once():
    code = """
    import torch
    def helper(n):
        table = torch.randn(n, 16)
        picks = torch.randint(0, n, (5,))
        return table.gather(0, picks.unsqueeze(1))

    def caller(n):
        return helper(n) + helper(n)
    """
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL005", 6)]
    assert "call at line" not in found[0].message


LAYERED = """
import torch
import torch.nn as nn

class Critic(nn.Module):
    def __init__(self, n_in, n_out, width=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, width), nn.Tanh(), nn.Dropout(0.1), nn.Linear(width, n_out))
        self.register_buffer("table", torch.zeros(n_out, 5))
        self.bias = nn.Parameter(torch.zeros(n_out, 3))

    def forward(self, x):
        return self.trunk(x)

{use}
"""


@pytest.mark.parametrize("use", [
    # an instance passed to a helper, called there: forward with the constructor's sizes
    "def value_of(net, x, a):\n    return net(x).gather(1, a.unsqueeze(0))\n\n"
     "if __name__ == '__main__':\n    value_of(Critic(6, 4), torch.randn(10, 6), torch.randint(0, 4, (10,)))",
    # a registered buffer and a Parameter, read through the instance
    "def lookup(net, a):\n    return net.table.gather(0, a.unsqueeze(1))\n\n"
     "if __name__ == '__main__':\n    lookup(Critic(6, 4), torch.randint(0, 4, (10,)))",
    "def lookup(net, a):\n    return net.bias.gather(0, a.unsqueeze(1))\n\n"
     "if __name__ == '__main__':\n    lookup(Critic(6, 4), torch.randint(0, 4, (10,)))",
    # instantiated and called in one expression
    "if __name__ == '__main__':\n    Critic(6, 4)(torch.randn(10, 6)).gather(1, torch.randint(0, 4, (1, 10)))",
])
def test_instances_of_the_files_modules_carry_their_layer_sizes(torch, use):
    code = LAYERED.format(use=use)
    found = lint(code)
    line = next(n for n, text in enumerate(code.splitlines(), 1) if ".gather(" in text)
    assert [(f.code, f.line) for f in found] == [("GL005", line)], use
    net = torch.nn.Sequential(torch.nn.Linear(6, 32), torch.nn.Tanh(), torch.nn.Dropout(0.1), torch.nn.Linear(32, 4))
    assert net(torch.randn(10, 6)).shape == (10, 4)
    a = torch.randint(0, 4, (10,))
    assert torch.zeros(4, 5).gather(0, a.unsqueeze(1)).shape == (10, 1)  # reads column 0 only


def test_an_instance_built_with_other_sizes_is_analysed_apart():
    use = ("def value_of(net, x, a):\n    return net(x).gather(1, a.unsqueeze(1))\n\n"
           "if __name__ == '__main__':\n    value_of(Critic(6, 1), torch.randn(10, 6), torch.randint(0, 1, (10,)))")
    assert codes(LAYERED.format(use=use)) == []


def test_a_self_attribute_instance_runs_its_forward():
    code = """
    import torch
    import torch.nn as nn

    class Head(nn.Module):
        def __init__(self, d, k):
            super().__init__()
            self.proj = nn.Linear(d, k)

        def forward(self, h):
            return self.proj(h)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = Head(16, 8)

        def forward(self, h, picks):
            scores = self.head(h)
            return scores.gather(1, picks.unsqueeze(0))

    if __name__ == "__main__":
        Model()(torch.randn(4, 16), torch.randint(0, 8, (4,)))
    """
    assert codes(code) == ["GL005"]


def test_ids_stored_in_a_half_precision_buffer_come_back_rounded(torch):
    # a rollout buffer keeps actions in the policy's dtype; the loss reads them back with .long()
    code = """
    import torch
    from jaxtyping import BFloat16, Float
    from torch import Tensor

    class Store:
        def __init__(self, steps: int, n_tokens: int):
            self.scores: BFloat16[Tensor, "steps n_tokens"] = torch.zeros(steps, n_tokens, dtype=torch.bfloat16)
            self.taken = torch.zeros(steps, dtype=torch.bfloat16)

    def taken_logp(scores: Float[Tensor, "steps n_tokens"], taken):
        return scores.float().log_softmax(-1).gather(-1, taken.long().unsqueeze(-1))

    if __name__ == "__main__":
        store = Store(8, 1000)
        taken_logp(store.scores, store.taken)
    """
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL015", 12)]
    assert "bfloat16" in found[0].message
    ids = torch.tensor([257, 999])
    assert not torch.equal(ids.to(torch.bfloat16).long(), ids)  # 257 -> 256, 999 -> 1000


def test_ids_in_a_half_precision_tensor_are_fine_for_a_small_dim():
    code = """
    import torch
    def pick(q, taken):
        return q.gather(1, taken.long().unsqueeze(1))

    if __name__ == "__main__":
        pick(torch.randn(8, 6), torch.zeros(8, dtype=torch.float16))
    """
    assert codes(code) == []


@pytest.mark.parametrize("make", [
    'spec = {"rows": 2, "width": 8, "points": 50}',
    'spec = dict(rows=2, width=8, points=50)',
])
def test_sizes_from_a_config_dict_reach_a_helper(torch, make):
    code = f"""
    import torch
    def pool(feats, slot, n_slots):
        out = feats.new_zeros(feats.size(0), feats.size(1), n_slots)
        return out.scatter_add_(2, slot.unsqueeze(1), feats)

    def build(spec):
        return torch.randn(spec["rows"], spec["width"], spec["points"])

    if __name__ == "__main__":
        {make}
        feats = build(spec)
        pool(feats, torch.randint(0, 4, (spec["rows"], spec["points"])), 4)
    """
    assert codes(code) == ["GL009"], make
    feats, slot = torch.randn(2, 8, 50), torch.randint(0, 4, (2, 50))
    out = feats.new_zeros(2, 8, 4).scatter_add_(2, slot.unsqueeze(1), feats)
    assert out[:, 1:].abs().sum() == 0  # only channel 0 was pooled


def test_a_config_dict_written_after_it_was_built_is_forgotten():
    code = """
    import torch
    def pool(feats, slot, n_slots):
        out = feats.new_zeros(feats.size(0), feats.size(1), n_slots)
        return out.scatter_add_(2, slot.unsqueeze(1), feats)

    if __name__ == "__main__":
        spec = {"width": 8}
        spec["width"] = 1
        spec.update(width=1)
        feats = torch.randn(2, spec["width"], 50)
        pool(feats, torch.randint(0, 4, (2, 50)), 4)
    """
    assert codes(code) == []


@pytest.mark.parametrize("layer,width", [
    ("nn.GRU(12, 20, batch_first=True)", 20),
    ("nn.LSTM(12, 10, num_layers=2, bidirectional=True)", 20),
    ("nn.RNN(12, 20, 1)", 20),
])
def test_recurrent_layers_give_their_output_width(torch, layer, width):
    code = f"""
    import torch
    import torch.nn as nn

    class Reader(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = {layer}

        def forward(self, x, last):
            states, _ = self.rnn(x)
            return states.gather(1, last.view(-1, 1, 1).expand(-1, 1, 24))

    if __name__ == "__main__":
        Reader()(torch.randn(3, 5, 12), torch.tensor([4, 2, 0]))
    """
    assert codes(code) == ["GL003"], layer
    states, _ = eval(layer, {"nn": torch.nn})(torch.randn(3, 5, 12))
    assert states.shape[-1] == width < 24


def test_a_bidirectional_flag_that_is_not_a_literal_leaves_the_width_unknown():
    code = """
    import torch
    import torch.nn as nn

    class Reader(nn.Module):
        def __init__(self, both):
            super().__init__()
            self.rnn = nn.GRU(12, 16, bidirectional=both)

        def forward(self, x, last):
            states, _ = self.rnn(x)
            return states.gather(1, last.view(-1, 1, 1).expand(-1, 1, 32))

    if __name__ == "__main__":
        Reader(True)(torch.randn(3, 5, 12), torch.tensor([4, 2, 0]))
    """
    assert codes(code) == []


def test_a_module_built_from_a_spread_config_dict(torch):
    code = """
    import torch
    import torch.nn as nn

    class Gate(nn.Module):
        def __init__(self, d_model, n_experts, scale=1):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(n_experts, d_model))

        def forward(self, h, chosen):
            logits = nn.functional.linear(h, self.weight)
            return logits.gather(1, chosen.unsqueeze(0))

    if __name__ == "__main__":
        options = {"d_model": 16, "n_experts": 6}
        Gate(**options)(torch.randn(5, 16), torch.randint(0, 6, (5,)))
    """
    assert codes(code) == ["GL005"]
    logits = torch.nn.functional.linear(torch.randn(5, 16), torch.randn(6, 16))
    assert logits.shape == (5, 6)


def test_a_spread_of_unknown_options_binds_no_default():
    code = """
    import torch
    def padded(n, fill: int = -1, **rest):
        return torch.full((2, n), fill, dtype=torch.long)

    def lookup(table, ids):
        return table.gather(1, ids)

    def run(options):
        lookup(torch.randn(2, 10), padded(6, **options))
    """
    assert codes(code) == []


LAST_TOKEN = """
import torch
def pooled(states, keep):
    {make}
    return states.gather(1, n.view(-1, 1, 1).expand(-1, 1, states.size(-1)))

if __name__ == "__main__":
    states = torch.randn(3, 6, 4)
    keep = torch.arange(6).expand(3, 6) < torch.tensor([[6], [2], [4]])
    pooled(states, keep)
"""


def test_a_mask_sum_is_a_length_one_past_the_last_position(torch):
    assert codes(LAST_TOKEN.format(make="n = keep.sum(dim=1)")) == ["GL011"]
    assert codes(LAST_TOKEN.format(make="n = torch.sum(keep, 1)")) == ["GL011"]
    states = torch.randn(3, 6, 4)
    keep = torch.arange(6).expand(3, 6) < torch.tensor([[6], [2], [4]])
    n = keep.sum(dim=1)
    assert n.max() == 6  # a full row's length is the dim's size
    with pytest.raises(RuntimeError):
        states.gather(1, n.view(-1, 1, 1).expand(-1, 1, 4))


@pytest.mark.parametrize("make", [
    "n = keep.sum(dim=1) - 1",
    "n = keep.sum(1).clamp(max=keep.size(1) - 1)",
    "n = keep.long().argmax(1)",
])
def test_a_length_made_into_a_position_is_fine(torch, make):
    assert codes(LAST_TOKEN.format(make=make)) == [], make


IGNORED = """
import torch
def dense(labels, n_classes):
    out = torch.zeros(labels.size(0), n_classes, labels.size(2))
    {use}

if __name__ == "__main__":
    labels = torch.randint(0, 3, (2, 1, 9))
    labels[:, :, :2] = 255
    dense(labels, 3)
"""


def test_an_ignore_label_written_into_ids_is_out_of_range_downstream(torch):
    assert codes(IGNORED.format(use="return out.scatter_(1, labels, 1.0)")) == ["GL011"]
    labels = torch.randint(0, 3, (2, 1, 9))
    labels[:, :, :2] = 255
    with pytest.raises(RuntimeError):
        torch.zeros(2, 3, 9).scatter_(1, labels, 1.0)


@pytest.mark.parametrize("use", [
    "return out.scatter_(1, labels.masked_fill(labels == 255, 0), 1.0)",
    "return out.scatter_(1, torch.where(labels == 255, 0, labels), 1.0)",
    "return out.scatter_(1, labels.clamp(max=n_classes - 1), 1.0)",
])
def test_an_ignore_label_masked_before_use_is_fine(use):
    assert codes(IGNORED.format(use=use)) == [], use
