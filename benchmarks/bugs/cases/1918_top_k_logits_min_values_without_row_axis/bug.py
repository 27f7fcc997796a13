import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGPT2LMHeadModel(nn.Module):
    def __init__(self, vocab_size, n_embd):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.rnn = nn.GRU(n_embd, n_embd, batch_first=True)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids, past=None):
        hidden, past = self.rnn(self.wte(input_ids), past)
        return self.lm_head(hidden), past


def top_k_logits(logits, k):
    """
    Masks everything but the k top entries as -infinity (1e10).
    Used to mask logits such that e^-infinity -> 0 won't contribute to the
    sum of the denominator.
    """
    if k == 0:
        return logits
    values = torch.topk(logits, k)[0]
    min_values = values[:, -1]
    return torch.where(logits < min_values, torch.ones_like(logits, dtype=logits.dtype) * -1e10, logits)


def sample_sequence(model, length, context, temperature=1.0, top_k=0, sample=True):
    prev = context
    output = context
    past = None
    with torch.no_grad():
        for _ in range(length):
            logits, past = model(prev, past=past)
            logits = logits[:, -1, :] / temperature
            logits = top_k_logits(logits, k=top_k)
            probs = F.softmax(logits, dim=-1)
            if sample:
                prev = torch.multinomial(probs, num_samples=1)
            else:
                _, prev = torch.topk(probs, k=1, dim=-1)
            output = torch.cat((output, prev), dim=1)
    return output


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyGPT2LMHeadModel(vocab_size=50, n_embd=16).eval()
    prompts = torch.tensor([[11, 7, 23], [4, 4, 9], [30, 2, 17], [8, 41, 5]])
    out = sample_sequence(model, length=5, context=prompts, temperature=0.7, top_k=8)
    print(out.tolist())
