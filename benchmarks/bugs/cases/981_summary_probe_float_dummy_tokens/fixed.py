import torch
import torch.nn as nn


class TextCNN(nn.Module):
    def __init__(self, vocab_size=1000, embed_dim=32, num_filters=16, num_classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.conv = nn.Conv1d(embed_dim, num_filters, kernel_size=3, padding=1)
        self.head = nn.Linear(num_filters, num_classes)

    def forward(self, tokens):
        x = self.embed(tokens)
        x = torch.relu(self.conv(x.transpose(1, 2)))
        return self.head(x.max(dim=2).values)


def summarize(model, input_size, vocab_size, batch_size=2):
    """Print every leaf module's output shape for a dummy forward pass."""
    rows = []

    def hook(module, inp, out):
        rows.append((module.__class__.__name__, tuple(out.shape)))

    handles = [m.register_forward_hook(hook) for m in model.modules() if not list(m.children())]
    dummy = torch.randint(0, vocab_size, (batch_size, *input_size), dtype=torch.long)
    try:
        with torch.no_grad():
            model(dummy)
    finally:
        for h in handles:
            h.remove()
    for name, shape in rows:
        print(f"{name:<12}{shape}")
    return rows


if __name__ == "__main__":
    net = TextCNN(vocab_size=1000, embed_dim=32)
    rows = summarize(net, input_size=(12,), vocab_size=1000)

    # reference: run the layers by hand on an explicit integer batch
    ids = torch.randint(0, 1000, (2, 12))
    with torch.no_grad():
        emb = net.embed(ids)
        ref = torch.stack([torch.stack([net.embed.weight[ids[b, t]] for t in range(12)]) for b in range(2)])
    assert torch.equal(emb, ref)
    assert rows[0] == ("Embedding", (2, 12, 32))
    assert rows[-1] == ("Linear", (2, 4))
    print("ok")
