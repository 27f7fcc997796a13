import torch


def build_dataset(words, block_size=3):
    chars = sorted(set("".join(words)))
    stoi = {ch: i + 1 for i, ch in enumerate(chars)}
    stoi["."] = 0
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            X.append(context)
            Y.append(stoi[ch])
            context = context[1:] + [stoi[ch]]
    return torch.tensor(X), torch.tensor(Y), len(stoi)


def train_step(params, X, Y, batch_size=32, lr=0.1):
    C, W1, b1, W2, b2 = params
    ix = torch.randint(0, X.shape[0], (batch_size,))
    emb = C[X[ix]]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    logits = h @ W2 + b2
    counts = logits.exp()
    prob = counts / counts.sum(1, keepdim=True)
    loss = -prob[torch.arange(batch_size), Y[ix]].log().mean()
    for p in params:
        p.grad = None
    loss.backward()
    for p in params:
        p.data += -lr * p.grad
    return loss.item()


def reference_loss(params, X, Y, batch_size=32):
    C, W1, b1, W2, b2 = params
    ix = torch.randint(0, X.shape[0], (batch_size,))
    total = 0.0
    with torch.no_grad():
        for r in range(batch_size):
            h = torch.tanh(C[X[ix[r]]].view(-1) @ W1 + b1)
            logits = h @ W2 + b2
            total += -(logits[Y[ix[r]]] - torch.logsumexp(logits, 0)).item()
    return total / batch_size


if __name__ == "__main__":
    words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail"]
    X, Y, vocab = build_dataset(words)
    g = torch.Generator().manual_seed(2147483647)
    params = [torch.randn(vocab, 2, generator=g), torch.randn(6, 100, generator=g), torch.randn(100, generator=g),
              torch.randn(100, vocab, generator=g), torch.randn(vocab, generator=g)]
    for p in params:
        p.requires_grad = True
    for step in range(3):
        torch.manual_seed(step)
        ref = reference_loss(params, X, Y)
        torch.manual_seed(step)
        got = train_step(params, X, Y)
        assert abs(got - ref) < 1e-3 * max(1.0, abs(ref)), (got, ref)
    print("ok")
