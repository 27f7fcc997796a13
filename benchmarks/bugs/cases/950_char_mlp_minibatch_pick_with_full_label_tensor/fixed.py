import torch
from jaxtyping import Float, Int
from torch import Tensor


def build_dataset(words: list[str], block_size: int = 3) -> tuple[Int[Tensor, "n ctx"], Int[Tensor, "n"]]:
    stoi = {ch: i + 1 for i, ch in enumerate(sorted(set("".join(words))))}
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi.get(ch, 0)
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


def nll_of_targets(prob: Float[Tensor, "batch vocab"], targets: Int[Tensor, "batch"]) -> Float[Tensor, ""]:
    return -prob[torch.arange(prob.shape[0]), targets].log().mean()


def train_step(params, X: Int[Tensor, "n ctx"], Y: Int[Tensor, "n"], batch_size: int = 32) -> float:
    C, W1, b1, W2, b2 = params
    ix = torch.randint(0, X.shape[0], (batch_size,))
    emb: Float[Tensor, "batch ctx dim"] = C[X[ix]]
    h = torch.tanh(emb.view(batch_size, -1) @ W1 + b1)
    logits: Float[Tensor, "batch vocab"] = h @ W2 + b2
    counts = logits.exp()
    prob = counts / counts.sum(1, keepdim=True)
    loss = nll_of_targets(prob, Y[ix])
    ref = sum(-torch.log(prob[i, int(Y[ix][i])]) for i in range(batch_size)) / batch_size
    assert torch.allclose(loss, ref, atol=1e-5)
    for p in params:
        p.grad = None
    loss.backward()
    for p in params:
        p.data += -0.1 * p.grad
    return loss.item()


if __name__ == "__main__":
    g = torch.Generator().manual_seed(2147483647)
    words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper", "evelyn"]
    X, Y = build_dataset(words)
    vocab = int(max(X.max(), Y.max())) + 1
    params = [torch.randn(vocab, 2, generator=g), torch.randn(6, 100, generator=g), torch.randn(100, generator=g),
              torch.randn(100, vocab, generator=g), torch.randn(vocab, generator=g)]
    for p in params:
        p.requires_grad_(True)
    torch.manual_seed(0)
    train_step(params, X, Y)
    print("ok")
