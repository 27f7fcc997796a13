import torch
import torch.nn as nn
import torch.nn.functional as F


def cos_sim(a, b):
    return F.normalize(a, dim=-1) @ F.normalize(b, dim=-1).T


class CachedGuidedInBatchLoss(nn.Module):
    """In-batch negatives loss where a frozen guide model masks out likely false negatives.

    The batch is processed in mini-batches (as in the cached/GradCache variants); every mini-batch of
    anchors is scored against the full batch of positives and anchors.
    """

    def __init__(self, temperature=0.05, mini_batch_size=4):
        super().__init__()
        self.temperature = temperature
        self.mini_batch_size = mini_batch_size

    def forward(self, anchor, positive, anchor_guide, positive_guide):
        # anchor, positive: [B, D]   anchor_guide, positive_guide: [B, G]
        batch_size = anchor.size(0)
        labels = torch.arange(batch_size, device=anchor.device)  # [B] positive of anchor i is column i
        losses = []
        for b in range(0, batch_size, self.mini_batch_size):
            e = min(b + self.mini_batch_size, batch_size)
            guided_ap_sim = cos_sim(anchor_guide[b:e], positive_guide)  # [mb, B]
            guided_aa_sim = cos_sim(anchor_guide[b:e], anchor_guide)  # [mb, B]
            # column of each anchor's own positive, used as the false-negative threshold
            pos_cols = labels[b:e].unsqueeze(1)  # [mb, 1]
            guided_sim = guided_ap_sim.gather(1, pos_cols)  # [mb, 1]

            ap_sim = cos_sim(anchor[b:e], positive)  # [mb, B]
            aa_sim = cos_sim(anchor[b:e], anchor)  # [mb, B]
            ap_sim = ap_sim.masked_fill(guided_ap_sim > guided_sim, float("-inf"))
            aa_sim = aa_sim.masked_fill(guided_aa_sim > guided_sim, float("-inf"))

            scores = torch.cat([ap_sim, aa_sim], dim=1) / self.temperature  # [mb, 2B]
            losses.append(F.cross_entropy(scores, labels[b:e], reduction="sum"))
        return torch.stack(losses).sum() / batch_size


def reference_loss(a, p, ag, pg, temperature=0.05):
    import math

    def cos(u, v):
        return sum(x * y for x, y in zip(u, v)) / math.sqrt(sum(x * x for x in u) * sum(y * y for y in v))

    a, p, ag, pg = a.tolist(), p.tolist(), ag.tolist(), pg.tolist()
    n = len(a)
    total = 0.0
    for i in range(n):
        threshold = cos(ag[i], pg[i])
        logits = []
        for j in range(n):
            logits.append(-math.inf if cos(ag[i], pg[j]) > threshold else cos(a[i], p[j]) / temperature)
        for j in range(n):
            logits.append(-math.inf if cos(ag[i], ag[j]) > threshold else cos(a[i], a[j]) / temperature)
        m = max(logits)
        lse = m + math.log(sum(math.exp(x - m) for x in logits))
        total += lse - logits[i]
    return total / n


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Linear(24, 16)
    guide = nn.Linear(24, 12)
    queries = torch.randn(12, 24)
    docs = queries + 0.8 * torch.randn(12, 24)
    with torch.no_grad():
        args = (encoder(queries), encoder(docs), guide(queries), guide(docs))
        cached = CachedGuidedInBatchLoss(mini_batch_size=4)(*args)
        full = CachedGuidedInBatchLoss(mini_batch_size=12)(*args)
    ref = reference_loss(*args)
    assert abs(cached.item() - ref) < 1e-3 * max(1.0, abs(ref)), (cached.item(), ref)
    assert abs(full.item() - ref) < 1e-3 * max(1.0, abs(ref)), (full.item(), ref)
    print("ok")
