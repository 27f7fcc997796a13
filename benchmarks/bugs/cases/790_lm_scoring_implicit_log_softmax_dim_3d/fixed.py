import torch
import torch.nn as nn
import torch.nn.functional as F


class GRULanguageModel(nn.Module):
    def __init__(self, vocab_size=50, emb_dim=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.head(out)


def sequence_nll(model, tokens, lengths):
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    logits = model(inputs)
    log_probs = F.log_softmax(logits, dim=-1)
    token_logp = log_probs.gather(2, targets.unsqueeze(2)).squeeze(2)
    steps = torch.arange(targets.size(1)).unsqueeze(0)
    mask = (steps < (lengths - 1).unsqueeze(1)).float()
    return -(token_logp * mask).sum(1)


def reference_nll(model, tokens, lengths):
    import math
    logits = model(tokens[:, :-1])
    out = []
    for b in range(tokens.size(0)):
        total = 0.0
        for t in range(int(lengths[b]) - 1):
            row = logits[b, t].tolist()
            m = max(row)
            lse = m + math.log(sum(math.exp(v - m) for v in row))
            total -= row[int(tokens[b, t + 1])] - lse
        out.append(total)
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GRULanguageModel(vocab_size=50, emb_dim=16, hidden=32)
    tokens = torch.randint(1, 50, (3, 9))
    lengths = torch.tensor([9, 6, 4])
    with torch.no_grad():
        nll = sequence_nll(model, tokens, lengths)
        ref = reference_nll(model, tokens, lengths)
    assert torch.allclose(nll, ref, atol=1e-4), (nll, ref)
    print("ok")
