import torch
import torch.nn as nn
import torch.nn.functional as F


def top_p(logits, thres=0.9):
    # logits: (batch, num_tokens)
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)  # both (batch, num_tokens)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)

    sorted_indices_to_remove = cum_probs > (1 - thres)
    sorted_indices_to_remove[:, 1:] = sorted_indices_to_remove[:, :-1].clone()
    sorted_indices_to_remove[:, 0] = 0

    sorted_logits[sorted_indices_to_remove] = float('-inf')
    return torch.gather(sorted_logits, -1, sorted_indices)  # (batch, num_tokens), original vocab order


class TrainingWrapper(nn.Module):
    def __init__(self, net, pad_value=0):
        super().__init__()
        self.net = net
        self.pad_value = pad_value

    @torch.no_grad()
    def next_token_probs(self, seq, filter_thres=0.9, temperature=1.):
        # seq: (batch, t)
        logits = self.net(seq)[:, -1, :]  # (batch, num_tokens)
        filtered_logits = top_p(logits, thres=filter_thres)
        return F.softmax(filtered_logits / temperature, dim=-1), logits


class BagLM(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        # x: (batch, t) -> (batch, t, num_tokens)
        h = self.token_emb(x).cumsum(dim=1)
        return self.to_logits(h.tanh()) * 3.0


def reference_probs(logits, thres):
    out = []
    for row in logits.tolist():
        order = sorted(range(len(row)), key=lambda i: -row[i])
        m = max(row)
        exps = {i: torch.tensor(row[i] - m).exp().item() for i in order}
        total = sum(exps.values())
        kept, cum = [], 0.0
        for rank, i in enumerate(order):
            if rank > 0 and cum > 1 - thres:
                break
            kept.append(i)
            cum += exps[i] / total
        z = sum(exps[i] for i in kept)
        out.append([exps[i] / z if i in kept else 0.0 for i in range(len(row))])
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    wrapper = TrainingWrapper(BagLM(num_tokens=16, dim=8))
    seq = torch.randint(1, 16, (3, 5))
    probs, logits = wrapper.next_token_probs(seq, filter_thres=0.5)
    ref = reference_probs(logits, 0.5)
    print("argmax token:", probs.argmax(-1).tolist(), "reference:", ref.argmax(-1).tolist())
    print("mass on tokens outside the nucleus:", (probs * (ref == 0)).sum(-1).tolist())
