import torch
import torch.nn as nn
import torch.nn.functional as F


class ReIDEmbedder(nn.Module):
    def __init__(self, in_dim, emb_dim):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(in_dim, 512), nn.BatchNorm1d(512), nn.ReLU(), nn.Linear(512, emb_dim))

    def forward(self, pooled):
        return F.normalize(self.proj(pooled), dim=1)


def pairwise_distance(emb):
    sq = emb.pow(2).sum(dim=1, keepdim=True)
    dist = sq + sq.t() - 2.0 * emb @ emb.t()
    return dist.clamp(min=1e-12).sqrt()


class BatchHardTripletLoss(nn.Module):
    """Triplet loss with batch-hard mining (Hermans et al., 2017)."""

    def __init__(self, margin=0.3):
        super().__init__()
        self.ranking = nn.MarginRankingLoss(margin=margin)

    def forward(self, emb, pids):
        n = emb.size(0)
        dist = pairwise_distance(emb)
        mask = pids.expand(n, n).eq(pids.expand(n, n).t()).long()
        num_pos = mask.sum(dim=1) - 1
        dist_ap, dist_an = [], []
        for i in range(n):
            dist_ap.append(dist[i][mask[i]].max())
            dist_an.append(dist[i][1 - mask[i]].min())
        dist_ap = torch.stack(dist_ap)
        dist_an = torch.stack(dist_an)
        y = torch.ones_like(dist_an)
        loss = self.ranking(dist_an, dist_ap, y)
        precision = (dist_an > dist_ap).float().mean()
        return loss, precision, num_pos


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ReIDEmbedder(2048, 128).eval()
    pooled = torch.randn(16, 2048)
    pids = torch.arange(4).repeat_interleave(4)
    criterion = BatchHardTripletLoss(margin=0.3)
    with torch.no_grad():
        emb = model(pooled)
        loss, prec, _ = criterion(emb, pids)
        dist = pairwise_distance(emb)
        ap = torch.stack([max(dist[i, j] for j in range(16) if pids[j] == pids[i]) for i in range(16)])
        an = torch.stack([min(dist[i, j] for j in range(16) if pids[j] != pids[i]) for i in range(16)])
        ref = F.relu(ap - an + 0.3).mean()
    print("batch-hard loss:", loss.item(), "loop reference:", ref.item(), "precision:", prec.item())
