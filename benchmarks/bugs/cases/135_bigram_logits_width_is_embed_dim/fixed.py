import torch
import torch.nn as nn
from torch.nn import functional as F

text = "to be or not to be that is the question whether tis nobler in the mind to suffer"
chars = sorted(set(text))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}


def encode(s):
    return [stoi[c] for c in s]


def decode(ids):
    return "".join(itos[i] for i in ids)


class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        # each token directly reads off the logits for the next token from a lookup table
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)  # (B, T, C)
        if targets is None:
            return logits, None
        B, T, C = logits.shape
        loss = F.cross_entropy(logits.view(B * T, C), targets.view(B * T))
        return logits, loss

    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits, _ = self(idx)
            probs = F.softmax(logits[:, -1, :], dim=-1)  # (B, C)
            idx_next = torch.multinomial(probs, num_samples=1)  # (B, 1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


if __name__ == "__main__":
    torch.manual_seed(1337)
    data = torch.tensor(encode(text), dtype=torch.long)
    model = BigramLanguageModel(vocab_size)
    ix = torch.randint(len(data) - 9, (4,))
    x = torch.stack([data[i:i + 8] for i in ix])
    y = torch.stack([data[i + 1:i + 9] for i in ix])
    _, loss = model(x, y)
    logits, loss = model(x, y)
    terms = []
    for b in range(4):
        for t in range(8):
            row = logits[b, t]
            terms.append(torch.logsumexp(row, 0) - row[y[b, t]])
    assert torch.allclose(loss, torch.stack(terms).mean(), atol=1e-5)
    out = model.generate(torch.zeros((1, 1), dtype=torch.long), max_new_tokens=40)
    assert out.shape == (1, 41) and all(0 <= i < vocab_size for i in out[0].tolist())
    print(decode(out[0].tolist()))
    print("ok")
