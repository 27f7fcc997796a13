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
    position = (flat / vocab_size).long()
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
    changed = (adv_ids != input_ids).nonzero().flatten().tolist()
    print("flip position:", position.item(), "token:", token.item())
    print("positions changed:", changed, "expected gain:", gains[position, token].item())
