import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):                      # ids: [B, T]
        h, _ = self.rnn(self.emb(ids))           # [B, T, D]
        return self.head(h[:, -1])               # [B, V] logits for the next token


def previously_generated(ids, prompt_len):
    return ids[:, prompt_len:]                   # [B, K], K grows by one per step


class BanRepeatsProcessor:
    def __call__(self, logits, banned):          # logits: [B, V], banned: [B, K]
        floor = torch.full((logits.size(0), 1), float("-inf"))   # [B, 1]
        return logits.scatter(1, banned, floor)  # [B, V]


@torch.no_grad()
def generate(model, prompt, steps):
    processor = BanRepeatsProcessor()
    ids = prompt                                 # [B, P]
    for _ in range(steps):
        logits = model(ids)                      # [B, V]
        if ids.size(1) > prompt.size(1):
            logits = processor(logits, previously_generated(ids, prompt.size(1)))
        next_id = logits.argmax(dim=-1, keepdim=True)   # [B, 1]
        ids = torch.cat([ids, next_id], dim=1)
    return ids


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    prompt = torch.randint(0, 50, (3, 4))
    out = generate(model, prompt, steps=6)
    print(out[:, 4:])
