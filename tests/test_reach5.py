"""Facts that reach the faulty call from further away (round 5).

Custom autograd Functions: the index a forward saves with `ctx.save_for_backward` and reads with a
lookup is the index its backward gets from `ctx.saved_tensors`; writing the gradient there without
accumulating keeps one gradient per repeated position (GL013). Tested in several layouts (gather /
index_select / embedding / subscript lookups; scatter_, index_copy_, index_put_, subscript writes;
tuple unpacking and item access) and checked against autograd in torch."""
import pytest

from .conftest import codes, lint
from .snippets import run_snippet


# ----- custom autograd Functions: backward of a lookup ---------------------------------------------

INDEX_SELECT_BAD = """
import torch

class RowPick(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, positions):
        ctx.save_for_backward(positions)
        ctx.num_rows = weight.shape[0]
        return weight.index_select(0, positions)

    @staticmethod
    def backward(ctx, grad_out):
        positions = ctx.saved_tensors[0]
        grad_weight = torch.zeros(ctx.num_rows, grad_out.shape[1])
        grad_weight.index_copy_(0, positions, grad_out)
        return grad_weight, None

if __name__ == "__main__":
    weight = torch.randn(5, 3, requires_grad=True)
    positions = torch.tensor([1, 1, 4, 1])
    upstream = torch.randn(4, 3)
    RowPick.apply(weight, positions).backward(upstream)
    custom = weight.grad.clone()
    weight.grad = None
    weight.index_select(0, positions).backward(upstream)
    reference = weight.grad.clone()
"""

EMBEDDING_BAD = """
import torch
import torch.nn.functional as F
from torch.autograd import Function


class Lookup(Function):
    @staticmethod
    def forward(ctx, token_ids, table):
        ctx.save_for_backward(token_ids, table)
        return F.embedding(token_ids, table)

    @staticmethod
    def backward(ctx, grad_rows):
        token_ids, table = ctx.saved_tensors
        flat = token_ids.reshape(-1)
        grad_table = grad_rows.new_zeros(table.shape)
        grad_table[flat] = grad_rows.reshape(-1, table.shape[1])
        return None, grad_table


def run():
    table = torch.randn(6, 2, requires_grad=True)
    token_ids = torch.tensor([[0, 3, 3], [3, 5, 0]])
    upstream = torch.randn(2, 3, 2)
    Lookup.apply(token_ids, table).backward(upstream)
    custom = table.grad.clone()
    table.grad = None
    F.embedding(token_ids, table).backward(upstream)
    return custom, table.grad.clone()

if __name__ == "__main__":
    custom, reference = run()
"""


def test_index_copy_backward_of_index_select_is_flagged_and_loses_gradient(torch):
    found = [f for f in lint(INDEX_SELECT_BAD) if f.code == "GL013"]
    assert [f.line for f in found] == [15]
    assert "positions" in found[0].message and "index_add_" in found[0].message
    scope = run_snippet(INDEX_SELECT_BAD)
    assert not torch.allclose(scope["custom"], scope["reference"])  # the repeated row keeps one gradient
    fixed = run_snippet(INDEX_SELECT_BAD.replace("index_copy_(0, positions, grad_out)", "index_add_(0, positions, grad_out)"))
    assert torch.allclose(fixed["custom"], fixed["reference"])
    assert "GL013" not in codes(INDEX_SELECT_BAD.replace("index_copy_", "index_add_"))


def test_subscript_write_backward_of_embedding_is_flagged_and_loses_gradient(torch):
    found = [f for f in lint(EMBEDDING_BAD) if f.code == "GL013"]
    assert [f.line for f in found] == [18]
    assert "accumulate=True" in found[0].message
    scope = run_snippet(EMBEDDING_BAD)
    assert not torch.allclose(scope["custom"], scope["reference"])
    good = EMBEDDING_BAD.replace("grad_table[flat] = grad_rows.reshape(-1, table.shape[1])",
                                 "grad_table.index_put_((flat,), grad_rows.reshape(-1, table.shape[1]), accumulate=True)")
    fixed = run_snippet(good)
    assert torch.allclose(fixed["custom"], fixed["reference"])
    assert "GL013" not in codes(good)


GATHER_SCATTER = """
import torch
import torch.nn as nn


class ColumnGather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores, picks):
        ctx.save_for_backward(picks)
        ctx.width = scores.size(1)
        return torch.gather(scores, 1, index=picks)

    @staticmethod
    def backward(ctx, grad):
        (picks,) = ctx.saved_tensors
        out = torch.zeros(grad.size(0), ctx.width).scatter({ARGS})
        return out, None


class Scorer(nn.Module):
    def forward(self, scores, picks):
        return ColumnGather.apply(scores, picks).sum(1)


if __name__ == "__main__":
    scores = torch.randn(3, 4, requires_grad=True)
    picks = torch.tensor([[0, 0, 2], [1, 3, 1], [2, 2, 2]])
    Scorer()(scores, picks).pow(2).sum().backward()
    custom = scores.grad.clone()
    scores.grad = None
    scores.gather(1, picks).sum(1).pow(2).sum().backward()
    reference = scores.grad.clone()
"""


def test_out_of_place_scatter_on_zeros_in_a_module_driven_backward(torch):
    bad = GATHER_SCATTER.replace("{ARGS}", "1, picks, grad")
    found = [f for f in lint(bad) if f.code == "GL013"]
    assert [f.line for f in found] == [16] and "scatter_add" in found[0].message
    scope = run_snippet(bad)
    assert not torch.allclose(scope["custom"], scope["reference"])
    good = GATHER_SCATTER.replace("{ARGS}", "1, picks, grad, reduce='add'")
    scope = run_snippet(good)
    assert torch.allclose(scope["custom"], scope["reference"])
    assert "GL013" not in codes(good)
    add = GATHER_SCATTER.replace("{ARGS}", "1, picks, grad").replace(".scatter(", ".scatter_add(")
    scope = run_snippet(add)
    assert torch.allclose(scope["custom"], scope["reference"])
    assert "GL013" not in codes(add)


@pytest.mark.parametrize("forward_body, backward_body", [
    # a permutation cannot repeat: writing its gradient back is exact
    ("order = x.argsort(dim=0)\n        ctx.save_for_backward(order)\n        return x.gather(0, order)",
     "(order,) = ctx.saved_tensors\n        g = torch.zeros_like(grad)\n        g.scatter_(0, order, grad)\n        return g"),
    # the saved tensor is not what the forward looked up with
    ("ctx.save_for_backward(x)\n        return x.gather(0, ids)",
     "(x,) = ctx.saved_tensors\n        g = torch.zeros_like(grad)\n        g.scatter_(0, x.long(), grad)\n        return g"),
    # the buffer is not being filled from zeros
    ("ctx.save_for_backward(ids)\n        return x.gather(0, ids)",
     "(ids,) = ctx.saved_tensors\n        g = grad.clone()\n        g.scatter_(0, ids, grad)\n        return g"),
    # the written values are not the incoming gradient
    ("ctx.save_for_backward(ids)\n        return x.gather(0, ids)",
     "(ids,) = ctx.saved_tensors\n        g = torch.zeros_like(grad)\n        g.scatter_(0, ids, torch.ones_like(g))\n        return g"),
])
def test_backwards_that_keep_every_gradient_are_silent(forward_body, backward_body):
    code = f"""
import torch
ids = None

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        {forward_body}

    @staticmethod
    def backward(ctx, grad):
        {backward_body}
"""
    assert "GL013" not in codes(code)


def test_a_backward_outside_an_autograd_function_is_not_read():
    code = """
import torch

class Helper:
    def forward(self, ctx, table, ids):
        ctx.save_for_backward(ids)
        return table.index_select(0, ids)

    def backward(self, ctx, grad):
        (ids,) = ctx.saved_tensors
        g = torch.zeros(10, grad.size(1))
        g.index_copy_(0, ids, grad)
        return g
"""
    assert "GL013" not in codes(code)


CTX_ATTRIBUTE_BAD = """
import torch


class SparseRows(torch.autograd.Function):
    \"\"\"Row lookup whose index is kept on ctx as an attribute rather than with save_for_backward.\"\"\"

    @staticmethod
    def forward(ctx, embeddings, node_ids):
        ctx.node_ids = node_ids
        ctx.rows = embeddings.size(0)
        return embeddings[node_ids]

    @staticmethod
    def backward(ctx, grad_nodes):
        grad_embeddings = torch.zeros(ctx.rows, grad_nodes.size(1), dtype=grad_nodes.dtype)
        grad_embeddings[ctx.node_ids] = grad_nodes
        return grad_embeddings, None


def readout(embeddings, edges):
    return SparseRows.apply(embeddings, edges[1]).sum()


if __name__ == "__main__":
    embeddings = torch.randn(4, 3, requires_grad=True)
    edges = torch.tensor([[0, 1, 2, 3], [1, 1, 2, 1]])
    readout(embeddings, edges).backward()
    custom = embeddings.grad.clone()
    embeddings.grad = None
    embeddings[edges[1]].sum().backward()
    reference = embeddings.grad.clone()
"""


def test_an_index_kept_as_a_ctx_attribute_reaches_the_backward(torch):
    found = [f for f in lint(CTX_ATTRIBUTE_BAD) if f.code == "GL013"]
    assert [f.line for f in found] == [17] and "embeddings[node_ids]" in found[0].message
    scope = run_snippet(CTX_ATTRIBUTE_BAD)
    assert not torch.allclose(scope["custom"], scope["reference"])
    good = CTX_ATTRIBUTE_BAD.replace("grad_embeddings[ctx.node_ids] = grad_nodes",
                                     "grad_embeddings.index_add_(0, ctx.node_ids, grad_nodes)")
    scope = run_snippet(good)
    assert torch.allclose(scope["custom"], scope["reference"])
    assert "GL013" not in codes(good)


# ----- batches that arrive already shifted, into a forward that shifts again -------------------------

DATASET_SHIFTED_TWICE = """
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, stream, length):
        self.chunks = [stream[i:i + length + 1] for i in range(0, len(stream) - length, length)]

    def __len__(self):
        return len(self.chunks)

    def __getitem__(self, i):
        chunk = torch.tensor(self.chunks[i])
        return chunk[:-1], chunk[1:]


class CharLM(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.head = nn.Linear(width, vocab)

    def forward(self, tokens, targets=None):
        scores = self.head(self.embed(tokens))
        logp = scores[:, :-1, :].log_softmax(-1)
        picked = logp.gather(2, targets[:, 1:].unsqueeze(2)).squeeze(2)
        return scores, picked


if __name__ == "__main__":
    torch.manual_seed(0)
    stream = torch.randint(0, 11, (80,)).tolist()
    loader = DataLoader(Windows(stream, 9), batch_size=3)
    model = CharLM(11, 8)
    for step, (tokens, targets) in enumerate(loader):
        scores, picked = model(tokens, targets=targets)
        break
    full = torch.cat([tokens[:, :1], targets], dim=1)  # the chunks the batch was cut from
    logp = scores.log_softmax(-1)
    two_ahead = logp[:, :-1].gather(2, full[:, 2:].unsqueeze(2)).squeeze(2)
    next_token = logp.gather(2, full[:, 1:].unsqueeze(2)).squeeze(2)
"""


def test_dataset_pairs_shifted_again_by_the_forward_are_flagged_at_the_gather(torch):
    found = [f for f in lint(DATASET_SHIFTED_TWICE) if f.code == "GL007"]
    assert [f.line for f in found] == [28]
    assert "t+2" in found[0].message and "`targets`" in found[0].message
    scope = run_snippet(DATASET_SHIFTED_TWICE)
    assert torch.allclose(scope["picked"], scope["two_ahead"])  # scored against the token two ahead
    assert scope["picked"].shape[1] == scope["next_token"].shape[1] - 1  # and one position fewer
    aligned = DATASET_SHIFTED_TWICE.replace("return chunk[:-1], chunk[1:]", "return chunk[:-1], chunk[:-1].clone()")
    assert "GL007" not in codes(aligned)


HELPER_BATCH = """
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_batch(data, rows):
    block = data[rows]
    x = block[:, :-1]
    y = block[:, 1:]
    return x, y


class Decoder(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.proj = nn.Linear(width, vocab)

    def forward(self, idx, labels):
        logits = self.proj(torch.tanh(self.tok(idx)))
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        log_probs = F.log_softmax(shift_logits, dim=-1)
        token_lp = torch.gather(log_probs, -1, shift_labels.unsqueeze(-1)).squeeze(-1)
        return -token_lp.mean()


def train_step(model, data):
    idx, labels = get_batch(data, torch.tensor([0, 2]))
    return model(idx, labels)


if __name__ == "__main__":
    data = torch.randint(0, 13, (4, 10))
    loss = train_step(Decoder(13, 6), data)
"""


def test_a_get_batch_helper_reaches_a_forward_called_in_a_training_step():
    found = [f for f in lint(HELPER_BATCH) if f.code == "GL007"]
    assert [f.line for f in found] == [25] and "`labels`" in found[0].message
    fixed = HELPER_BATCH.replace("shift_logits = logits[..., :-1, :].contiguous()", "shift_logits = logits") \
        .replace("shift_labels = labels[..., 1:].contiguous()", "shift_labels = labels")
    assert "GL007" not in codes(fixed)


COLLATE_BATCH = """
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def collate(samples):
    batch = torch.stack([torch.tensor(s) for s in samples])
    return batch[:, :-1], batch[:, 1:], (batch[:, 1:] != 0).float()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(9, 4)
        self.out = nn.Linear(4, 9)

    def forward(self, input_ids, labels):
        logits = self.out(self.emb(input_ids))
        lp = torch.log_softmax(logits[:, :-1], dim=-1)
        return lp.gather(-1, labels[:, 1:][..., None]).squeeze(-1)


if __name__ == "__main__":
    samples = [[1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 7]]
    loader = DataLoader(samples, batch_size=2, collate_fn=collate)
    input_ids, labels, mask = next(iter(loader))
    model = Model()
    scores = model(input_ids, labels)
"""


def test_a_collate_function_reaches_the_model_through_next_iter(torch):
    found = [f for f in lint(COLLATE_BATCH) if f.code == "GL007"]
    assert [f.line for f in found] == [21]
    scope = run_snippet(COLLATE_BATCH)
    assert scope["scores"].shape == (2, 4)  # 5 inputs, one position dropped again
    once = COLLATE_BATCH.replace("return batch[:, :-1], batch[:, 1:], (batch[:, 1:] != 0).float()",
                                 "return batch, batch.clone(), (batch != 0).float()")
    assert "GL007" not in codes(once)


SELF_SHIFTING_MODEL = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.out = nn.Linear(4, 10)

    def forward(self, input_ids, labels=None):
        logits = self.out(self.emb(input_ids))
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        logp = F.log_softmax(shift_logits, dim=-1)
        return torch.gather(logp, -1, shift_labels.unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    model = LM()
    ids = torch.randint(0, 10, (2, 7))
    {CALL}
"""


@pytest.mark.parametrize("call, flagged", [
    ("out = model(ids, labels=ids)", False),  # the forward's own shift pairs t with t+1: right
    ("out = model(ids, ids.clone())", False),
    ("x, y = ids[:, :-1], ids[:, 1:]\n    out = model(x, y)", True),  # shifted here and again in forward
    ("out = model(ids, labels=ids[:, 1:])", True),
])
def test_a_forward_that_shifts_itself_is_checked_against_what_its_callers_pass(call, flagged):
    assert ("GL007" in codes(SELF_SHIFTING_MODEL.replace("{CALL}", call))) == flagged


def test_a_pre_shifted_batch_into_a_forward_that_does_not_shift_is_right():
    code = DATASET_SHIFTED_TWICE.replace("logp = scores[:, :-1, :].log_softmax(-1)", "logp = scores.log_softmax(-1)") \
        .replace("targets[:, 1:].unsqueeze(2)", "targets.unsqueeze(2)")
    assert "GL007" not in codes(code)


DICT_DATASET = """
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PackedText(Dataset):
    \"\"\"Fixed-length blocks of a token stream for causal-LM pretraining.\"\"\"

    def __init__(self, blocks):
        self.blocks = blocks

    def __len__(self):
        return len(self.blocks)

    def __getitem__(self, idx):
        block = self.blocks[idx]
        return {"input_ids": block[:-1].clone(), "labels": block[1:].clone()}


class GPTish(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.lm_head = nn.Linear(width, vocab, bias=False)

    def forward(self, input_ids, labels):
        lm_logits = self.lm_head(self.wte(input_ids))
        shift_logits = lm_logits[:, :-1]
        shift_labels = labels[:, 1:]
        logprobs = shift_logits.log_softmax(dim=-1)
        return logprobs.gather(dim=-1, index=shift_labels.unsqueeze(-1)).squeeze(-1)


def train(model, loader):
    for batch in loader:
        token_logprobs = model(batch["input_ids"], labels=batch["labels"])
    return token_logprobs


if __name__ == "__main__":
    blocks = torch.randint(0, 20, (6, 9))
    loader = DataLoader(PackedText(blocks), batch_size=2)
    model = GPTish(20, 8)
    out = train(model, loader)
    first = next(iter(loader))
"""


def test_a_dataset_returning_a_dict_reaches_the_model_through_batch_keys(torch):
    found = [f for f in lint(DICT_DATASET) if f.code == "GL007"]
    assert [f.line for f in found] == [32]
    scope = run_snippet(DICT_DATASET)
    assert torch.equal(scope["first"]["labels"][:, :-1], scope["first"]["input_ids"][:, 1:])  # already one ahead
    aligned = DICT_DATASET.replace('"labels": block[1:].clone()', '"labels": block[:-1].clone()')
    assert "GL007" not in codes(aligned)


# ----- getattr(self, mode)(inputs): a forward that dispatches to its own methods by name ---------------

DISPATCH = """
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.actor = nn.Linear(obs_dim, n_actions)
        self.critic = nn.Linear(obs_dim, n_actions)

    def compute_q(self, batch):
        q = self.critic(batch["obs"])
        return q.gather(1, batch["action"])

    def compute_actor(self, batch):
        return self.actor(batch["obs"]).softmax(-1)

    def forward(self, batch, mode):
        return getattr(self, mode)(batch)


if __name__ == "__main__":
    net = ActorCritic(6, 4)
    obs = torch.randn(8, 6)
    action = torch.randint(0, 4, (8,))
    {CALL}
"""


def test_a_mode_string_dispatch_carries_the_callers_shapes_into_the_method(torch):
    code = DISPATCH.replace("{CALL}", 'q = net({"obs": obs, "action": action}, "compute_q")')
    found = [f for f in lint(code) if f.code == "GL001"]
    assert [f.line for f in found] == [14]
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions"):
        run_snippet(code)
    good = code.replace('"action": action}', '"action": action.unsqueeze(1)}')
    run_snippet(good)
    assert "GL001" not in codes(good)


def test_a_mode_given_by_keyword_or_unknown_dispatches_only_when_known():
    by_keyword = DISPATCH.replace("{CALL}", 'q = net({"obs": obs, "action": action}, mode="compute_q")')
    assert "GL001" in codes(by_keyword)
    other = DISPATCH.replace("{CALL}", 'p = net({"obs": obs, "action": action}, "compute_actor")')
    assert "GL001" not in codes(other)
    unknown = DISPATCH.replace("{CALL}", 'import sys\n    q = net({"obs": obs, "action": action}, sys.argv[0])')
    assert "GL001" not in codes(unknown)


def test_a_dict_batch_spread_into_the_model_reaches_its_forward():
    spread = DICT_DATASET.replace('token_logprobs = model(batch["input_ids"], labels=batch["labels"])',
                                  "token_logprobs = model(**batch)")
    assert [f.line for f in lint(spread) if f.code == "GL007"] == [32]
    aligned = spread.replace('"labels": block[1:].clone()', '"labels": block[:-1].clone()')
    assert "GL007" not in codes(aligned)



NANO_GET_BATCH = """
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

block_size = 8
batch_size = 4


def get_batch(data):
    ix = torch.randint(len(data) - block_size - 1, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64)) for i in ix])
    return x, y


class GPT(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.lm_head = nn.Linear(width, vocab)

    def forward(self, idx, targets):
        logits = self.lm_head(self.wte(idx))
        logp = F.log_softmax(logits[:, :-1, :], dim=-1)
        return logp.gather(-1, targets[:, 1:].unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    data = np.random.randint(0, 30, size=200).astype(np.uint16)
    model = GPT(30, 8)
    X, Y = get_batch(data)
    out = model(X, Y)
"""


def test_random_offset_windows_one_token_apart_count_as_a_pre_shifted_pair(torch):
    found = [f for f in lint(NANO_GET_BATCH) if f.code == "GL007"]
    assert [f.line for f in found] == [27] and "a token apart" in found[0].message
    scope = run_snippet(NANO_GET_BATCH)
    assert torch.equal(scope["Y"][:, :-1], scope["X"][:, 1:])  # Y is already X one token on
    assert scope["out"].shape == (4, 7)
    same_start = NANO_GET_BATCH.replace("data[i + 1:i + 1 + block_size]", "data[i:i + block_size]")
    assert "GL007" not in codes(same_start)
