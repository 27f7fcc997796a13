"""Shape facts from every source the analyzer reads, checked through the rule they enable."""
import pytest

from .conftest import codes

UNEXPANDED = "out = feats.gather(0, idx.unsqueeze(1))"


@pytest.mark.parametrize("declare", [
    "feats = load()  # [N, D]",
    "feats = load()  # (N, D)",
    "feats = load()  # shape: [num_rows, dim]",
    "feats = load()  # shape (n, d_model)",
    "feats = load()  # N x D",
    "feats = load()  # batch_size x hidden_size",
    "feats = load()  # feats: [N, D]",
    "# [N, D]\n    feats = load()",
    "feats = load()  # gather-lint: shape feats=[N, D]",
    "feats = torch.randn(10, 128)",
    "feats = torch.zeros((10, 128))",
    "feats = torch.empty(size=(10, 128))",
    "feats: Float[Tensor, 'n d'] = load()",
    "feats: TensorType['n', 'd'] = load()",
    "feats = torch.randn(10, 4, 128).flatten(1)",
    "feats = torch.randn(128, 10).t()",
    "feats = torch.randn(128, 10).transpose(0, 1)",
    "feats = torch.randn(2, 10, 128).permute(1, 0, 2)[:, 0]",
    "feats = torch.randn(5, 2, 64).view(10, -1)",
    "feats = torch.randn(10, 1).expand(-1, 128)",
    "feats = torch.randn(10, 1, 128).squeeze(1)",
    "feats = torch.randn(1, 128).repeat(10, 1)",
    "feats = torch.cat([torch.randn(4, 128), torch.randn(6, 128)], dim=0)",
    "feats = torch.stack([torch.randn(128) for _ in range(10)])",
    "feats = torch.randn(10, 64) @ torch.randn(64, 128)",
    "feats = torch.randn(10, 128).log_softmax(-1) * 2",
    "feats = torch.randn(10, 128, 3).sum(-1)",
    "feats = torch.randn(10, 128, 3).mean(dim=2, keepdim=True)[..., 0]",
    "from einops import rearrange; feats = rearrange(torch.randn(2, 5, 128), 'b n d -> (b n) d')",
])
def test_shape_sources_enable_gl005(declare):
    code = f"import torch\ndef f(load, idx):\n    {declare}\n    idx = torch.randint(10, (4,))\n    {UNEXPANDED}\n"
    # a row repeated down dim 0 and gathered along dim 0: the same values whatever the index (GL019) as well
    spread = ["GL019"] if "repeat(10, 1)" in declare else []
    assert sorted(codes(code)) == ["GL005"] + spread, code


@pytest.mark.parametrize("signature,doc", [
    ("feats: Float[Tensor, 'N D'], idx: Int[Tensor, 'K']", ""),
    ("feats: 'Float[torch.Tensor, \"N D\"]', idx: Int64[Tensor, 'K']", ""),
    ("feats: TensorType['N', 'D', float], idx: TensorType['K']", ""),
    ("feats, idx", '"""\n    Args:\n        feats (`torch.FloatTensor` of shape `(N, D)`): rows.\n        idx (`torch.LongTensor` of shape `(K,)`): picks.\n    """'),
    ("feats, idx", '"""\n    Args:\n        feats (Tensor): [N, D] rows.\n        idx (Tensor): [K] picks.\n    """'),
    ("feats, idx", '"""feats: tensor of shape (N, D).\n    idx: tensor of shape (K,).\n    """'),
])
def test_parameter_shapes(signature, doc):
    code = f"import torch\ndef f({signature}):\n    {doc}\n    {UNEXPANDED}\n"
    assert codes(code) == ["GL005"], code


def test_parameter_line_comment():
    code = "def f(\n    feats,  # [N, D]\n    idx,  # [K]\n):\n    return feats.gather(0, idx.unsqueeze(1))\n"
    assert codes(code) == ["GL005"]


def test_shape_unpacking_names_dims():
    code = """
    def f(x, idx):
        B, T, C = x.shape
        idx = idx.view(B, T, 1)
        return x.gather(1, idx)
    """
    assert codes(code) == ["GL005"]


def test_size_binding_names_the_fix():
    code = """
    def f(x, idx):
        N, D = x.shape
        D = x.size(-1)
        idx = idx.view(-1, 1)
        return x.gather(0, idx)
    """
    from .conftest import lint

    (finding,) = lint(code)
    assert "`.expand(-1, D)`" in finding.message


def test_unknown_shapes_stay_silent():
    code = """
    import torch
    def f(feats, idx, y):
        a = feats.gather(0, idx.unsqueeze(1))
        b = torch.gather(feats, 1, idx)
        c = y.reshape(-1, 5).gather(1, idx)
        return a, b, c
    """
    assert codes(code) == []


def test_branches_keep_only_what_both_sides_agree_on():
    code = """
    import torch
    def f(flag, idx):
        if flag:
            x = torch.randn(4, 8)
        else:
            x = torch.randn(4, 8, 2)
        return x.gather(1, torch.randint(8, (4, 1)))
    """
    assert codes(code) == []
    agree = code.replace("torch.randn(4, 8, 2)", "torch.randn(4, 8)").replace("(4, 1)", "(4,)")
    assert codes(agree) == ["GL001"]


def test_branch_that_returns_does_not_join():
    code = """
    import torch
    def f(flag):
        x = torch.randn(4, 8)
        if flag:
            x = torch.randn(4, 8, 2)
            return x
        return x.gather(1, torch.randint(8, (4,)))
    """
    assert codes(code) == ["GL001"]


def test_loops_forget_reassigned_names():
    code = """
    import torch
    def f(n):
        x = torch.randn(4, 8)
        for _ in range(n):
            y = x.gather(1, torch.randint(8, (4,)))
            x = torch.cat([x, x], dim=0).view(-1)
        return y
    """
    assert codes(code) == []


def test_zip_rows_give_row_shapes():
    code = """
    import torch
    def f(logits, input_ids):
        '''
        Args:
            logits: tensor of shape (B, L, V).
            input_ids: tensor of shape (B, L).
        '''
        out = []
        for row, ids in zip(logits, input_ids):
            out.append(row.log_softmax(-1).gather(-1, ids))
        return out
    """
    assert codes(code) == ["GL001"]
    assert codes(code.replace("gather(-1, ids)", "gather(-1, ids.unsqueeze(-1))")) == []


@pytest.mark.parametrize("make", [
    "idx = x.topk(3, dim=1).indices",
    "_, idx = x.topk(3, dim=1)",
    "idx = x.topk(3, dim=1)[1]",
    "idx = torch.topk(x, 3, dim=1).indices",
    "idx = x.argsort(dim=1)[:, :3]",
    "idx = x.sort(dim=1).indices[:, :3]",
    "idx = x.argmax(dim=1, keepdim=True)",
    "idx = x.max(dim=1, keepdim=True).indices",
    "idx = torch.randint(N, (B, 3))",
])
def test_index_provenance(make):
    code = f"""
    import torch
    def f(x, y, B: int, N: int):
        x = x  # [B, N]
        y = y  # [B, N, D]
        {make}
        return y.gather(2, idx.unsqueeze(-1).expand(-1, -1, 4))
    """
    assert codes(code) == ["GL004"], make
    assert codes(code.replace("y.gather(2,", "y.gather(1,")) == []


@pytest.mark.parametrize("name", ["input_ids", "labels", "token_ids", "ids", "targets", "shift_labels", "actions"])
def test_token_id_names_index_the_vocab_dim(name):
    code = f"""
    def f(log_probs, {name}):
        log_probs = log_probs  # [B, L, vocab_size]
        return log_probs.gather(1, {name}.unsqueeze(-1))
    """
    assert codes(code) == ["GL004"]
    assert codes(code.replace("gather(1,", "gather(-1,")) == []


@pytest.mark.parametrize("name", ["position_ids", "node_ids", "batch_ids", "idx", "num_tokens"])
def test_other_names_carry_no_provenance(name):
    code = f"""
    def f(log_probs, {name}):
        log_probs = log_probs  # [B, L, vocab_size]
        return log_probs.gather(1, {name}.unsqueeze(-1))
    """
    assert codes(code) == []


def test_token_ids_without_a_vocab_named_dim_are_silent():
    code = """
    def f(h, input_ids):
        h = h  # [B, L, D]
        return h.gather(1, input_ids.unsqueeze(-1))
    """
    assert codes(code) == []


@pytest.mark.parametrize("make,flagged", [
    ("idx = (torch.arange(6) / 2).view(2, 3)", True),
    ("idx = torch.arange(3).repeat(2, 1).float()", True),  # in range: the dtype alone is wrong
    ("idx = torch.randn(2, 3)", True),
    ("idx = torch.zeros(2, 3)", True),
    ("idx = torch.tensor([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]])", True),
    ("idx = torch.zeros(2, 3, dtype=torch.bool)", True),
    ("idx = (torch.arange(6) // 2).view(2, 3)", False),
    ("idx = torch.zeros(2, 3, dtype=torch.long)", False),
    ("idx = torch.zeros(2, 3).long()", False),
    ("idx = (torch.randn(2, 3) > 0).sum(-1, keepdim=True)", False),
    ("idx = torch.tensor([[0, 1, 2], [0, 1, 2]])", False),
    ("idx = torch.zeros(2, 3, dtype=torch.int32)", False),
    ("idx = torch.zeros(2, 3, dtype=dtype)", False),
])
def test_gl008_index_dtype(make, flagged, torch):
    code = f"import torch\ndef f(x, dtype=torch.long):\n    x = torch.randn(2, 3)\n    {make}\n    return x.gather(1, idx)\n"
    assert (codes(code) == ["GL008"]) == flagged, make
    scope = {"torch": torch, "dtype": torch.long}
    exec(f"x = torch.randn(2, 3)\n{make}", scope)
    if flagged:
        with pytest.raises(RuntimeError):
            scope["x"].gather(1, scope["idx"])
    elif scope["idx"].dtype in (torch.int64, torch.int32):
        scope["x"].gather(1, scope["idx"].clamp(0, 2))


def test_int32_index_is_fine_for_gather_but_not_take_along_dim(torch):
    code = """
    import torch
    def f():
        x = torch.randn(2, 3)
        idx = torch.zeros(2, 1, dtype=torch.int32)
        a = x.gather(1, idx)
        b = torch.take_along_dim(x, idx, dim=1)
        return a, b
    """
    assert codes(code) == ["GL008"]
    x, idx = torch.randn(2, 3), torch.zeros(2, 1, dtype=torch.int32)
    x.gather(1, idx)
    with pytest.raises(RuntimeError):
        torch.take_along_dim(x, idx, dim=1)


def test_self_attributes_within_a_method():
    code = """
    import torch
    class Head:
        def forward(self, x, idx):
            self.table = torch.randn(10, 64)  # [num_classes, D]
            return self.table.gather(0, idx.view(-1, 1))
    """
    assert codes(code) == ["GL005"]


def test_multinomial_samples_index_the_last_dim():
    code = """
    import torch
    def f(probs, h):
        probs = probs  # [B, V]
        h = h  # [B, T, V]
        nxt = torch.multinomial(probs, 1)
        return h.gather(1, nxt.unsqueeze(-1).expand(-1, -1, 4)), h.gather(2, nxt.unsqueeze(1).expand(-1, 3, -1))
    """
    assert codes(code) == ["GL004"]


def test_loose_float_type_hints_are_not_dtypes():
    code = """
    import torch
    def f(x: torch.Tensor, idx: torch.FloatTensor):
        '''
        Args:
            idx (`torch.FloatTensor` of shape `(batch_size, 1)`): picks.
        '''
        return x.gather(1, idx)
    """
    assert codes(code) == []


@pytest.mark.parametrize("use,fires", [
    ("out = token_logps * mask", True),
    ("out = mask * token_logps", True),
    ("out = (token_logps - ref_logps).exp()", True),
    ("out = token_logps.mul(mask)", True),
    ("out = token_logps.exp() * mask", True),
    ("token_logps *= mask", True),
    ("out = token_logps > ref_logps", True),
    ("out = token_logps.squeeze(-1) * mask", False),
    ("out = token_logps * mask.unsqueeze(-1)", False),
    ("out = token_logps * 2.0", False),
    ("out = token_logps * token_logps", False),
])
def test_gl006_missing_squeeze(use, fires):
    code = f"""
    import torch
    def f(logits, ids, mask, ref_logps):
        log_probs = logits.log_softmax(-1)  # [B, L, V]
        ids = ids  # [B, L]
        mask = mask  # [B, L]
        ref_logps = ref_logps  # [B, L]
        token_logps = log_probs.gather(-1, ids.unsqueeze(-1))
        {use}
        return out
    """.replace("return out", "return None" if "*=" in use else "return out")
    assert (codes(code) == ["GL006"]) == fires, use


def test_gl006_dqn_weights_broadcast_to_b_by_b(torch):
    code = """
    import torch
    def f(q_values, actions, weights):
        q_values = q_values  # [B, num_actions]
        actions = actions  # [B]
        weights = weights  # [B]
        chosen = q_values.gather(1, actions.unsqueeze(1))
        return (chosen * weights).mean()
    """
    assert codes(code) == ["GL006"]
    chosen, weights = torch.randn(4, 1), torch.randn(4)
    assert (chosen * weights).shape == (4, 4)  # what torch silently does


def test_helper_is_checked_with_the_callers_shapes():
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor

    def get_per_token_logps(logits, input_ids):
        log_probs = logits.log_softmax(-1)
        return log_probs.gather(-2, input_ids.unsqueeze(-1)).squeeze(-1)

    def step(logits: Float[Tensor, "B L V"], input_ids: Int[Tensor, "B L"]):
        return get_per_token_logps(logits, input_ids)
    """
    from .conftest import lint

    (finding,) = lint(code)
    assert finding.code == "GL004" and finding.line == 8 and "(facts from the call at line 11)" in finding.message


def test_return_values_flow_back_to_the_caller():
    code = """
    import torch

    def make_index(n: int):
        return torch.randint(10, (n,))

    def f():
        feats = torch.randn(10, 128)
        idx = make_index(4)
        return feats.gather(0, idx.unsqueeze(1))
    """
    assert codes(code) == ["GL005"]  # make_index(4) returns [4]; unsqueezed, [4, 1]
    assert codes(code.replace("make_index(4)", "make_index(4).view(2, 2)").replace("idx.unsqueeze(1)", "idx")) == []


def test_recursion_and_unknown_arguments_are_safe():
    code = """
    import torch
    def walk(x, depth):
        if depth:
            return walk(x.gather(0, torch.zeros(2, 1, dtype=torch.long)), depth - 1)
        return x
    def f():
        return walk(torch.randn(3, 4), 3)
    """
    assert codes(code) == ["GL005"]


def test_comment_facts_do_not_cross_into_rank_polymorphic_helpers():
    # a segmented-gather helper that branches on rank, called with a tensor whose comment omits the batch dim
    code = """
    import torch

    def gather(values, index, batch_dims):
        if len(values.shape[batch_dims:]) < 2:
            return torch.gather(values, batch_dims, index.view(values.size()[0], -1))
        return torch.gather(values, batch_dims, index)

    def f(reduce_min, position_ids, full_index):
        # shape (max_rows * max_columns,). First absolute position for every cell
        first = reduce_min(position_ids, full_index)[0]
        return gather(first, full_index, 1)
    """
    assert codes(code) == []


CLASS_SOURCE = '''
import torch
import torch.nn as nn

class Head(nn.Module):
    def __init__(self, vocab_size: int, d_model: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.proj = nn.Linear(d_model, vocab_size)
        self.table = torch.randn(10, 64)

    def helper(self, logits, input_ids):
        return logits.gather(1, input_ids.unsqueeze(-1))

    def forward(self, input_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): ids.
        """
        h = self.embed(input_ids)
        logits = self.proj(h).log_softmax(-1)
        rows = self.table.gather(0, input_ids.view(-1, 1))
        w = self.embed.weight.index_select(1, input_ids.view(-1))
        return self.helper(logits, input_ids), rows, w
'''


def test_class_attributes_layers_and_methods():
    from .conftest import lint

    found = [(f.line, f.code) for f in lint(CLASS_SOURCE)]
    assert found == [(13, "GL004"), (22, "GL005"), (23, "GL004")]


def test_attributes_reassigned_elsewhere_are_not_facts():
    source = CLASS_SOURCE.replace("        return self.helper(logits, input_ids), rows, w",
                                  "        self.table = load()\\n        return rows")
    from .conftest import lint

    assert 22 not in [f.line for f in lint(source)]


@pytest.mark.parametrize("logits_slice,labels_slice,fires", [
    ("logits[:, :-1, :]", "input_ids[:, :-1]", True),
    ("logits[:, 1:]", "input_ids[:, 1:]", True),
    ("logits[..., :-1, :]", "input_ids[..., :-1]", True),
    ("logits.narrow(1, 0, L - 1)", "input_ids.narrow(1, 0, L - 1)", True),
    ("logits[:, :-1, :]", "input_ids[:, 1:]", False),
    ("logits.narrow(1, 0, L - 1)", "input_ids.narrow(1, 1, L - 1)", False),
    ("logits", "input_ids", False),
])
def test_gl007_shift_misalignment(logits_slice, labels_slice, fires):
    code = f"""
    import torch
    import torch.nn.functional as F
    def f(logits, input_ids, L: int):
        logits = logits  # [B, L, V]
        input_ids = input_ids  # [B, L]
        shift_logits = {logits_slice}
        shift_labels = {labels_slice}
        log_probs = F.log_softmax(shift_logits, dim=-1)
        return log_probs.gather(-1, shift_labels.unsqueeze(-1)).squeeze(-1)
    """
    assert ("GL007" in codes(code)) == fires


def test_gl007_labels_shifted_in_a_helper():
    code = """
    import torch
    from jaxtyping import Float, Int
    from torch import Tensor

    def shift(ids):
        return ids[:, :-1]

    def f(logits: Float[Tensor, "B L V"], input_ids: Int[Tensor, "B L"]):
        return logits[:, :-1].log_softmax(-1).gather(-1, shift(input_ids).unsqueeze(-1))
    """
    assert codes(code) == ["GL007"]


SENTINELS = '''
import torch
import torch.nn.functional as F

def loss(logits, input_ids, pad_id: int):
    """
    Args:
        logits (`torch.FloatTensor` of shape `(B, L, V)`): logits.
        input_ids (`torch.LongTensor` of shape `(B, L)`): ids.
    """
    labels = input_ids.clone()
    labels[labels == pad_id] = -100
    logps = logits.log_softmax(-1)
    a = logps.gather(-1, labels.unsqueeze(-1))
    b = torch.take_along_dim(logps, labels.unsqueeze(-1), dim=-1)
    safe = labels.masked_fill(labels == -100, 0)
    c = logps.gather(-1, safe.unsqueeze(-1))
    d = logps.gather(-1, labels.clamp(min=0).unsqueeze(-1))
    e = logps.gather(-1, torch.where(labels == -100, 0, labels).unsqueeze(-1))
    targets = torch.where(input_ids == pad_id, -100, input_ids)
    f = logps.gather(-1, targets.unsqueeze(-1))
    padded = F.pad(input_ids, (0, 1), value=-1)
    g = logps.gather(-1, padded[:, :-1].unsqueeze(-1))
    return a, b, c, d, e, f, g
'''


def test_padding_sentinels_are_tracked_until_masked(torch):
    from .conftest import lint

    found = [(f.line, f.code) for f in lint(SENTINELS)]
    assert found == [(14, "GL011"), (15, "GL010"), (21, "GL011"), (23, "GL011")]
    lp = torch.randn(1, 3, 5).log_softmax(-1)
    labels = torch.tensor([[1, 2, -100]])
    with pytest.raises(RuntimeError, match="out of bounds"):
        lp.gather(-1, labels.unsqueeze(-1))
    wrapped = torch.take_along_dim(lp, labels.unsqueeze(-1), dim=-1)  # silently reads entry -100 % 5
    assert torch.equal(wrapped[0, 2, 0], lp[0, 2, (-100) % 5])


def test_values_made_for_a_larger_table(torch):
    code = """
    import torch
    def f(extra: int):
        table = torch.randn(100, 16)  # [V, D]
        ids = torch.randint(120, (4, 16))
        return table.gather(0, ids)
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError):
        torch.randn(100, 16).gather(0, torch.full((4, 16), 110))


@pytest.mark.parametrize("make,fires", [
    ("idx = input_ids", True),
    ("idx = torch.randint(5, (8,))", True),
    ("idx = scores.topk(3).indices", False),
    ("idx = torch.arange(5)", False),
    ("idx = torch.randperm(5)", False),
    ("idx = mask", False),
])
def test_gl013_indexed_accumulation_with_repeating_indices(make, fires, torch):
    code = f"""
    import torch
    def f(input_ids, scores, mask):
        counts = torch.zeros(5)
        {make}
        counts[idx] += 1
        return counts
    """
    assert (codes(code) == ["GL013"]) == fires, make
    counts = torch.zeros(5)
    counts[torch.tensor([2, 2, 2])] += 1
    assert counts[2] == 1  # what torch does: one increment for three occurrences


@pytest.mark.parametrize("make,how", [
    ("prev = top_ids / vocab_size", "the true division `/` at line 6"),
    ("prev = (top_ids // vocab_size).float()", "`.float()` at line 6"),
    ("prev = (top_ids // vocab_size).to(torch.float16)", "`.to()` at line 6"),
])
def test_gl008_names_the_line_that_made_the_float(make, how):
    code = f"""
    import torch
    def f(scores, tokens, vocab_size: int):
        scores = torch.randn(4, 30)
        top_ids = scores.topk(3, dim=1).indices
        {make}
        return tokens.gather(1, prev)
    """
    from .conftest import lint

    (finding,) = [f for f in lint(code) if f.code == "GL008"]
    assert f"(made by {how})" in finding.message


def test_gl006_squeeze_without_dim_drops_a_batch_of_one(torch):
    code = """
    import torch
    def f():
        log_probs = torch.randn(1, 5, 10).log_softmax(-1)
        ids = torch.randint(10, (1, 5))
        a = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze()
        b = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
        return a, b
    """
    from .conftest import lint

    assert [(f.line, f.code) for f in lint(code)] == [(6, "GL006")]
    assert torch.randn(1, 5, 1).squeeze().shape == (5,)


def test_remainder_gives_values_in_range_for_the_vocab(torch):
    code = """
    import torch
    def f(scores, logits, vocab_size: int, num_beams: int):
        scores = scores  # [B, num_beams * vocab_size]
        logits = logits  # [B, T, vocab_size]
        top_ids = scores.topk(num_beams, dim=1).indices
        next_token = top_ids % vocab_size
        return logits.gather(1, next_token.unsqueeze(-1).expand(-1, -1, 4))
    """
    assert codes(code) == ["GL004"]
    assert (torch.tensor([-7, 12]) % 5).tolist() == [3, 2]


def test_padding_reaching_one_hot_and_embeddings(torch):
    code = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Model(nn.Module):
        def __init__(self, vocab_size: int):
            super().__init__()
            self.embed = nn.Embedding(vocab_size, 16)

        def forward(self, input_ids, pad_id: int):
            labels = input_ids.masked_fill(input_ids == pad_id, -100)
            a = F.one_hot(labels, 10)
            b = self.embed(labels)
            c = self.embed(labels.clamp(min=0))
            return a, b, c
    """
    from .conftest import lint

    assert [(f.line, f.code) for f in lint(code)] == [(13, "GL011"), (14, "GL011")]
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.nn.functional.one_hot(torch.tensor([1, -100]), 10)
    with pytest.raises(IndexError):
        torch.nn.Embedding(10, 4)(torch.tensor([1, -100]))


RMW = '''
import torch

def f(input_ids, scores):
    counts = torch.zeros(100)
    counts[input_ids] = counts[input_ids] + 1
    hist = torch.zeros(100)
    hist.scatter_(0, input_ids, hist.gather(0, input_ids) + 1)
    table = torch.zeros(100, 4)
    table.index_copy_(0, input_ids, table.index_select(0, input_ids) + 1)
    top = scores.topk(3).indices
    counts[top] = counts[top] + 1
    ok = torch.zeros(100)
    ok[input_ids] = 1.0
    acc = torch.zeros(100)
    acc.scatter_add_(0, input_ids, torch.ones(5))
    return counts, hist, table, ok, acc
'''


def test_gl013_read_modify_write_in_every_spelling(torch):
    from .conftest import lint

    assert [(f.line, f.code) for f in lint(RMW)] == [(6, "GL013"), (8, "GL013"), (10, "GL013")]
    ids = torch.tensor([1, 1])
    hist = torch.zeros(3)
    hist.scatter_(0, ids, hist.gather(0, ids) + 1)
    assert hist[1] == 1  # two occurrences, one count
