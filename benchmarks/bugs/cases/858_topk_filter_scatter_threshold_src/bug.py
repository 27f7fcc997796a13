import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 32)
        self.head = nn.Linear(32, 50)

    def forward(self, ids):
        return self.head(self.emb(ids).mean(1))


def top_k_logits(logits, top_k):
    top_k = min(top_k, logits.size(-1))
    values, indices = torch.topk(logits, top_k)
    kth = values[:, [-1]]
    masked = torch.full_like(logits, float("-inf"))
    masked.scatter_(-1, indices, kth)
    return masked


@torch.no_grad()
def generate(model, prompt, steps, top_k, temperature=0.8, seed=0):
    gen = torch.Generator().manual_seed(seed)
    ids = prompt
    for _ in range(steps):
        logits = model(ids) / temperature
        logits = top_k_logits(logits, top_k)
        nxt = torch.multinomial(logits.softmax(-1), 1, generator=gen)
        ids = torch.cat([ids, nxt], dim=1)
    return ids


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    prompt = torch.randint(0, 50, (2, 6))
    print(generate(model, prompt, steps=4, top_k=5))
