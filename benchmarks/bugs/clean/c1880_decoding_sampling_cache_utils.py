"""Decoding helpers for a causal LM: nucleus filtering, repetition penalty, shifted log-probs,
one beam-search step with a batch-first KV cache, and a top-k MoE combine."""
import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def top_p_filter(logits: Float[Tensor, "b v"], top_p: float) -> Float[Tensor, "b v"]:
    sorted_logits, sorted_idx = logits.sort(dim=-1, descending=True)  # [b, v], [b, v]
    cum_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)  # [b, v]
    sorted_remove = (cum_probs - sorted_logits.softmax(dim=-1)) >= top_p  # mass before this token
    remove = sorted_remove.scatter(1, sorted_idx, sorted_remove)  # back to vocab order
    return logits.masked_fill(remove, float("-inf"))


def repetition_penalty(
    logits: Float[Tensor, "b v"], input_ids: Int[Tensor, "b l"], penalty: float
) -> Float[Tensor, "b v"]:
    seen = logits.gather(1, input_ids)  # [b, l]
    seen = torch.where(seen < 0, seen * penalty, seen / penalty)
    return logits.scatter(1, input_ids, seen)  # repeated ids write identical values


def shifted_token_logprobs(
    logits: Float[Tensor, "b l v"], input_ids: Int[Tensor, "b l"]
) -> Float[Tensor, "b l_minus_1"]:
    logp = logits[:, :-1].log_softmax(dim=-1)  # position t predicts token t + 1
    return logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)


def beam_step(
    step_logprobs: Float[Tensor, "bk v"],
    beam_scores: Float[Tensor, "bk"],
    cache: Float[Tensor, "bk h s d"],
    num_beams: int,
) -> tuple[Float[Tensor, "bk"], Int[Tensor, "bk"], Float[Tensor, "bk h s d"]]:
    bk, vocab = step_logprobs.shape
    batch = bk // num_beams
    total = (step_logprobs + beam_scores[:, None]).view(batch, num_beams * vocab)  # [b, k*v]
    new_scores, flat_idx = total.topk(num_beams, dim=-1)  # [b, k]
    beam_idx = torch.div(flat_idx, vocab, rounding_mode="floor")  # [b, k]
    tokens = flat_idx % vocab  # [b, k]
    src_rows = (beam_idx + torch.arange(batch)[:, None] * num_beams).view(-1)  # [b*k]
    return new_scores.view(-1), tokens.view(-1), cache.index_select(0, src_rows)


def moe_combine(
    x: Float[Tensor, "t d"], weights: Float[Tensor, "t k"], experts: Int[Tensor, "t k"], ffns: nn.ModuleList
) -> Float[Tensor, "t d"]:
    out = torch.zeros_like(x)
    for e, ffn in enumerate(ffns):
        tok, slot = torch.where(experts == e)  # [m], [m]
        if tok.numel():
            out.index_add_(0, tok, ffn(x.index_select(0, tok)) * weights[tok, slot].unsqueeze(-1))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    b, v = 3, 11
    logits = torch.randn(b, v)

    filtered = top_p_filter(logits, 0.7)
    for i in range(b):
        probs = logits[i].softmax(-1).tolist()
        order = sorted(range(v), key=lambda j: -logits[i, j].item())
        acc, keep = 0.0, set()
        for j in order:
            if acc >= 0.7:
                break
            keep.add(j)
            acc += probs[j]
        for j in range(v):
            assert (filtered[i, j].item() == float("-inf")) == (j not in keep)

    ids = torch.tensor([[1, 4, 4, 7], [0, 0, 2, 9], [10, 3, 5, 3]])
    penalised = repetition_penalty(logits, ids, 1.3)
    for i in range(b):
        for j in range(v):
            x = logits[i, j].item()
            expect = (x * 1.3 if x < 0 else x / 1.3) if j in ids[i].tolist() else x
            assert abs(penalised[i, j].item() - expect) < 1e-6

    seq_logits = torch.randn(2, 6, v)
    seq_ids = torch.randint(0, v, (2, 6))
    lp = shifted_token_logprobs(seq_logits, seq_ids)
    for i in range(2):
        for t in range(5):
            ref = seq_logits[i, t].log_softmax(-1)[seq_ids[i, t + 1]].item()
            assert abs(lp[i, t].item() - ref) < 1e-6

    k = 2
    step = torch.randn(b * k, v).log_softmax(-1)
    scores = torch.randn(b * k)
    cache = torch.randn(b * k, 2, 4, 5)
    new_scores, tokens, new_cache = beam_step(step, scores, cache, k)
    for i in range(b):
        cands = sorted(
            ((scores[i * k + bm].item() + step[i * k + bm, t].item(), bm, t) for bm in range(k) for t in range(v)),
            reverse=True,
        )[:k]
        for r, (s, bm, t) in enumerate(cands):
            assert abs(new_scores[i * k + r].item() - s) < 1e-5 and tokens[i * k + r].item() == t
            assert torch.equal(new_cache[i * k + r], cache[i * k + bm])

    ffns = nn.ModuleList(nn.Linear(8, 8) for _ in range(4))
    x = torch.randn(5, 8)
    w, ex = torch.rand(5, 2).softmax(-1), torch.tensor([[0, 3], [1, 2], [3, 1], [2, 0], [1, 3]])
    with torch.no_grad():
        y = moe_combine(x, w, ex, ffns)
        for t in range(5):
            ref = sum(w[t, j] * ffns[ex[t, j].item()](x[t]) for j in range(2))
            assert torch.allclose(y[t], ref, atol=1e-6)
    print("ok")
