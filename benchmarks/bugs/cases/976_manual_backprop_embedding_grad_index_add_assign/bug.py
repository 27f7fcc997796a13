import torch
import torch.nn.functional as F

cfg = dict(vocab_size=27, block_size=3, n_embd=10, n_hidden=64, batch_size=32)


def init_params(cfg, g):
    C = torch.randn(cfg["vocab_size"], cfg["n_embd"], generator=g)
    W1 = torch.randn(cfg["block_size"] * cfg["n_embd"], cfg["n_hidden"], generator=g) * 0.2
    b1 = torch.randn(cfg["n_hidden"], generator=g) * 0.1
    W2 = torch.randn(cfg["n_hidden"], cfg["vocab_size"], generator=g) * 0.1
    b2 = torch.randn(cfg["vocab_size"], generator=g) * 0.1
    params = [C, W1, b1, W2, b2]
    for p in params:
        p.requires_grad = True
    return params


def get_batch(cfg, g):
    Xb = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"], cfg["block_size"]), generator=g)
    Yb = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"],), generator=g)
    return Xb, Yb


def forward(params, Xb, Yb):
    C, W1, b1, W2, b2 = params
    emb = C[Xb]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    logits = h @ W2 + b2
    return F.cross_entropy(logits, Yb), (emb, h, logits)


def manual_backward(params, cache, Xb, Yb):
    C, W1, b1, W2, b2 = params
    emb, h, logits = cache
    n = Xb.shape[0]
    dlogits = F.softmax(logits, 1)
    dlogits[range(n), Yb] -= 1
    dlogits /= n
    dhpre = (1.0 - h ** 2) * (dlogits @ W2.T)
    demb = (dhpre @ W1.T).view(emb.shape)
    dC = torch.zeros_like(C)
    dC[Xb] += demb
    return dC


if __name__ == "__main__":
    g = torch.Generator().manual_seed(2147483647)
    params = init_params(cfg, g)
    Xb, Yb = get_batch(cfg, g)
    loss, cache = forward(params, Xb, Yb)
    loss.backward()
    with torch.no_grad():
        dC = manual_backward(params, cache, Xb, Yb)
    print("dC max abs diff vs autograd:", (dC - params[0].grad).abs().max().item())
