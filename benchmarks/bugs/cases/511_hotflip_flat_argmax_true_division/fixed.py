"""HotFlip-style single-token substitution search for a causal LM."""
import torch
from jaxtyping import Float, Int
from torch import Tensor


def flip_gains(
    embed_grad: Float[Tensor, "seq dim"],
    embedding: Float[Tensor, "vocab dim"],
    input_ids: Int[Tensor, " seq"],
) -> Float[Tensor, "seq vocab"]:
    """First-order estimate of the loss increase for every (position, replacement) pair."""
    current = embedding[input_ids]
    return embed_grad @ embedding.T - (embed_grad * current).sum(-1, keepdim=True)


def best_flip(gains: Float[Tensor, "seq vocab"]) -> tuple[Int[Tensor, ""], Int[Tensor, ""]]:
    vocab_size = gains.shape[-1]
    flat = gains.reshape(-1).argmax()
    position = torch.div(flat, vocab_size, rounding_mode="floor")
    token = flat % vocab_size
    return position, token


def apply_flip(
    input_ids: Int[Tensor, " seq"], position: Int[Tensor, ""], token: Int[Tensor, ""]
) -> Int[Tensor, " seq"]:
    return input_ids.scatter(0, position.view(1), token.view(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, dim, seq = 151936, 8, 128
    embedding = torch.randn(vocab, dim) * 0.01
    embedding[vocab - 1] = torch.full((dim,), 3.0)       # a rarely used special token
    input_ids = torch.randint(0, 1000, (seq,))
    embed_grad = torch.randn(seq, dim) * 0.01
    embed_grad[120] = 1.0                                 # the loss is most sensitive at position 120

    gains = flip_gains(embed_grad, embedding, input_ids)
    position, token = best_flip(gains)
    adv_ids = apply_flip(input_ids, position, token)

    # reference: scan positions one by one
    best_gain, ref_pos, ref_tok = float("-inf"), -1, -1
    for p in range(seq):
        g, t = gains[p].max(0)
        if g.item() > best_gain:
            best_gain, ref_pos, ref_tok = g.item(), p, t.item()
    ref_ids = input_ids.clone()
    ref_ids[ref_pos] = ref_tok
    assert (position.item(), token.item()) == (ref_pos, ref_tok)
    assert torch.equal(adv_ids, ref_ids)
    print("ok")
