import torch
import torch.nn as nn
import torch.nn.functional as F


def top_p(logits, thres=0.9):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)

    sorted_indices_to_remove = cum_probs > thres
    sorted_indices_to_remove[:, 1:] = sorted_indices_to_remove[:, :-1].clone()
    sorted_indices_to_remove[:, 0] = 0

    sorted_logits[sorted_indices_to_remove] = float('-inf')
    return sorted_logits.scatter(1, sorted_indices, sorted_logits)


def top_k(logits, thres=0.9):
    k = max(int((1 - thres) * logits.shape[-1]), 1)
    val, ind = torch.topk(logits, k)
    probs = torch.full_like(logits, float('-inf'))
    probs.scatter_(1, ind, val)
    return probs


class TinyLM(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.out = nn.Linear(dim, num_tokens)

    def forward(self, x):
        return self.out(self.emb(x).mean(dim=1).tanh())


class AutoregressiveWrapper(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    @torch.no_grad()
    def generate(self, start_tokens, seq_len, filter_logits_fn=top_p, filter_thres=0.9, temperature=1.):
        out = start_tokens
        for _ in range(seq_len):
            logits = self.net(out)
            filtered_logits = filter_logits_fn(logits, thres=filter_thres)
            probs = F.softmax(filtered_logits / temperature, dim=-1)
            sample = torch.multinomial(probs, 1)
            out = torch.cat((out, sample), dim=-1)
        return out[:, start_tokens.shape[1]:]


def nucleus_keep_sets(logits, thres):
    keep = []
    for row in logits.tolist():
        order = sorted(range(len(row)), key=lambda i: -row[i])
        exps = [torch.tensor(row[i]).exp().item() for i in order]
        total, cum, kept = sum(exps), 0.0, []
        for rank, i in enumerate(order):
            if rank > 0 and cum > thres:
                break
            kept.append(i)
            cum += exps[rank] / total
        keep.append(sorted(kept))
    return keep


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AutoregressiveWrapper(TinyLM(num_tokens=12, dim=8))
    prompt = torch.randint(0, 12, (2, 3))
    logits = model.net(prompt)
    filtered = top_p(logits.clone(), thres=0.5)
    kept = [sorted(torch.isfinite(row).nonzero().flatten().tolist()) for row in filtered]
    assert kept == nucleus_keep_sets(logits, 0.5)
    for b in range(2):
        for i in kept[b]:
            assert torch.isclose(filtered[b, i], logits[b, i])
    sample = model.generate(prompt, 5)
    assert sample.shape == (2, 5)
    print("ok")
