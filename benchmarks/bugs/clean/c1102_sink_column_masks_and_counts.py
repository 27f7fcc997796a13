import math

import torch
from jaxtyping import Float, Int


def sample_replace_mask(
    attention_mask: torch.Tensor, prob: float, generator: torch.Generator
) -> torch.Tensor:
    """Pick ceil(prob * n_tokens) real positions per row; excess picks go to a sink column."""
    batch, seq_len = attention_mask.shape
    max_picks = math.ceil(prob * seq_len)
    n_tokens = attention_mask.sum(dim=-1, keepdim=True)
    excess = (attention_mask.cumsum(dim=-1) > (n_tokens * prob).ceil())[:, :max_picks]
    scores = torch.rand(batch, seq_len, generator=generator).masked_fill(~attention_mask, -1e9)
    picks = scores.topk(max_picks, dim=-1).indices                # [B, max_picks]
    picks = (picks + 1).masked_fill(excess, 0)                    # column 0 is the sink
    chosen = torch.zeros(batch, seq_len + 1)
    chosen.scatter_(1, picks, 1.0)                                # duplicates all write 1.0
    return chosen[:, 1:].bool()


def ban_tokens(logits: Float[torch.Tensor, "b v"], banned: Int[torch.Tensor, "b k"]) -> Float[torch.Tensor, "b v"]:
    return logits.scatter(1, banned, float("-inf"))               # scalar value, no src shape


def transition_counts(states: Int[torch.Tensor, "t"], n_states: int) -> Float[torch.Tensor, "n n"]:
    counts = torch.zeros(n_states, n_states)
    counts.index_put_((states[:-1], states[1:]), torch.ones(states.numel() - 1), accumulate=True)
    return counts


def segment_max(values: Float[torch.Tensor, "n d"], seg: Int[torch.Tensor, "n"], n_seg: int) -> Float[torch.Tensor, "s d"]:
    out = torch.full((n_seg, values.size(1)), float("-inf"))
    index = seg.unsqueeze(1).expand_as(values)
    return out.scatter_reduce(0, index, values, reduce="amax", include_self=False)


def parent_nodes(nodes: Int[torch.Tensor, "m"]) -> Int[torch.Tensor, "p"]:
    return torch.unique(torch.div(nodes, 2, rounding_mode="floor"))


def pick_int32(table: Float[torch.Tensor, "b c"], cols: Int[torch.Tensor, "b"]) -> Float[torch.Tensor, "b"]:
    return table.gather(1, cols.to(torch.int32).unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)

    attn = torch.tensor([[1] * 10 + [0] * 2, [1] * 5 + [0] * 7, [1] * 12]).bool()
    mask = sample_replace_mask(attn, 0.3, g)
    assert mask.sum(-1).tolist() == [math.ceil(0.3 * n) for n in attn.sum(-1).tolist()]
    assert not (mask & ~attn).any()

    logits, banned = torch.randn(3, 9), torch.tensor([[1, 4], [0, 0], [8, 2]])
    banned_out = ban_tokens(logits, banned)
    for b in range(3):
        for v in range(9):
            expect = float("-inf") if v in banned[b].tolist() else logits[b, v].item()
            assert banned_out[b, v].item() == expect

    states = torch.randint(0, 4, (50,))
    counts = transition_counts(states, 4)
    ref = [[0] * 4 for _ in range(4)]
    for a, c in zip(states[:-1].tolist(), states[1:].tolist()):
        ref[a][c] += 1
    assert counts.tolist() == [[float(x) for x in row] for row in ref]

    vals, seg = -torch.rand(7, 3), torch.tensor([0, 2, 2, 0, 1, 2, 1])
    seg_out = segment_max(vals, seg, 3)
    for s in range(3):
        for d in range(3):
            assert seg_out[s, d].item() == max(vals[i, d].item() for i in range(7) if seg[i] == s)

    assert parent_nodes(torch.tensor([8, 9, 13, 14])).tolist() == [4, 6, 7]

    table, cols = torch.randn(5, 6), torch.tensor([0, 5, 2, 2, 3])
    picked = pick_int32(table, cols)
    assert [picked[i].item() for i in range(5)] == [table[i, cols[i]].item() for i in range(5)]
    print("ok")
