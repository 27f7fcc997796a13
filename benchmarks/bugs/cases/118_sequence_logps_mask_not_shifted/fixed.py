import torch
import torch.nn as nn


class ToyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.embed(ids))
        return self.out(h)


def get_logps(model, tokens, mask):
    inputs = tokens[:, :-1]
    targets = tokens[:, 1:]
    logits = model(inputs)
    token_logps = logits.log_softmax(dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    mask = mask[:, 1:]
    return (token_logps * mask).sum(dim=-1), mask.sum(dim=-1)


def dpo_loss(policy, reference, chosen, rejected, chosen_mask, rejected_mask, beta=0.1):
    pc, _ = get_logps(policy, chosen, chosen_mask)
    pr, _ = get_logps(policy, rejected, rejected_mask)
    with torch.no_grad():
        rc, _ = get_logps(reference, chosen, chosen_mask)
        rr, _ = get_logps(reference, rejected, rejected_mask)
    margin = beta * ((pc - rc) - (pr - rr))
    return -nn.functional.logsigmoid(margin).mean()


def completion_mask(batch, length, prompt_len):
    mask = torch.zeros(batch, length)
    mask[:, prompt_len:] = 1.0
    return mask


if __name__ == "__main__":
    torch.manual_seed(0)
    policy, reference = ToyLM(32, 16), ToyLM(32, 16)
    chosen = torch.randint(0, 32, (4, 12))
    rejected = torch.randint(0, 32, (4, 12))
    mask = completion_mask(4, 12, prompt_len=5)
    loss = dpo_loss(policy, reference, chosen, rejected, mask, mask)
    logps, n_tokens = get_logps(policy, chosen, mask)
    lp = policy(chosen[:, :-1]).log_softmax(-1)
    ref = torch.stack([sum(lp[b, t - 1, chosen[b, t]] for t in range(5, 12)) for b in range(4)])
    assert n_tokens.tolist() == [7.0] * 4
    assert torch.allclose(logps, ref, atol=1e-5) and torch.isfinite(loss)
    print("ok")
