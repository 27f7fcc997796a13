import torch
import torch.nn as nn
from torch.nn import functional as F
from dataclasses import dataclass


@dataclass
class GPTConfig:
    block_size: int = 64
    vocab_size: int = 65  # shakespeare_char
    n_embd: int = 32


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            ln_f=nn.LayerNorm(config.n_embd),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        causal = torch.tril(torch.ones(t, t, device=idx.device))
        x = (causal / causal.sum(-1, keepdim=True)) @ x
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            # if the sequence context is growing too long we must crop it at block_size
            idx_cond = idx if idx.size(1) <= self.config.block_size else idx[:, -self.config.block_size:]
            # forward the model to get the logits for the index in the sequence
            logits, _ = self(idx_cond)
            # pluck the logits at the final step and scale by desired temperature
            logits = logits[:, -1, :] / temperature
            # optionally crop the logits to only the top k options
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float('Inf')
            # apply softmax to convert logits to (normalized) probabilities
            probs = F.softmax(logits, dim=-1)
            # sample from the distribution
            idx_next = torch.multinomial(probs, num_samples=1)
            # append sampled index to the running sequence and continue
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


if __name__ == "__main__":
    # sample.py defaults
    num_samples = 2
    max_new_tokens = 20
    temperature = 0.8
    top_k = 200  # retain only the top_k most likely tokens, clamp others to have 0 probability

    torch.manual_seed(1337)
    model = GPT(GPTConfig())
    model.eval()
    start_ids = [0]  # "\n" in the shakespeare_char meta.pkl
    x = torch.tensor(start_ids, dtype=torch.long)[None, ...]
    for k in range(num_samples):
        torch.manual_seed(k)
        y = model.generate(x, max_new_tokens, temperature=temperature, top_k=top_k)
        # top_k larger than the vocabulary keeps every token: same draw as no filtering at all
        torch.manual_seed(k)
        y_ref = model.generate(x, max_new_tokens, temperature=temperature, top_k=None)
        assert torch.equal(y, y_ref), k

        # a real crop: every sampled token must be among the 3 largest logits of its step
        torch.manual_seed(k)
        y3 = model.generate(x, max_new_tokens, temperature=temperature, top_k=3)
        for t in range(1, y3.size(1)):
            logits, _ = model(y3[:, :t])
            row = logits[0, -1].tolist()
            top3 = sorted(range(len(row)), key=lambda i: row[i], reverse=True)[:3]
            assert y3[0, t].item() in top3, (k, t)
    print("ok")
