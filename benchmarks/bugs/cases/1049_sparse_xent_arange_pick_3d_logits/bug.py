import torch
import torch.nn as nn


def cross_entropy_logits_sparse(logits, labels):
    """Per-example cross-entropy from logits and integer labels."""
    return torch.logsumexp(logits, dim=-1) - logits[torch.arange(logits.shape[0]), labels]


class Tagger(nn.Module):
    def __init__(self, vocab, dim, num_tags):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, num_tags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def train_step(model, opt, tokens, tags):
    logits = model(tokens)
    loss = cross_entropy_logits_sparse(logits, tags).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Tagger(vocab=50, dim=16, num_tags=32)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    tokens = torch.randint(0, 50, (3, 5))
    tags = torch.randint(0, 32, (3, 5))
    print(train_step(model, opt, tokens, tags).item())
