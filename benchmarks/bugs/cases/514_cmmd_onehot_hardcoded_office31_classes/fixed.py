import argparse

import torch
from torch.utils.data import DataLoader, Dataset


class FeatureDomain(Dataset):
    """Pre-extracted backbone features with class labels in [0, num_classes)."""

    def __init__(self, n, dim, num_classes, seed):
        g = torch.Generator().manual_seed(seed)
        self.feats = torch.randn(n, dim, generator=g)
        self.labels = torch.arange(n) % num_classes

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.feats[i], self.labels[i]


def gaussian_kernel(a, b, sigma=1.0):
    return torch.exp(-torch.cdist(a, b).pow(2) / (2 * sigma ** 2))


def cmmd(source, target, s_label, t_prob):
    # source, target: [B, D]; s_label: [B]; t_prob: [B, C] (target pseudo-label probabilities)
    s_onehot = torch.zeros(s_label.size(0), t_prob.size(1)).scatter_(1, s_label.unsqueeze(1), 1.0)  # [B, C]
    ss = s_onehot @ s_onehot.t()
    tt = t_prob @ t_prob.t()
    st = s_onehot @ t_prob.t()
    k_ss, k_tt, k_st = gaussian_kernel(source, source), gaussian_kernel(target, target), gaussian_kernel(source, target)
    n = s_label.size(0)
    return ((ss * k_ss).sum() + (tt * k_tt).sum() - 2 * (st * k_st).sum()) / (n * n)


def train_step(args, src_batch, tgt_feats, head):
    src_feats, src_labels = src_batch
    t_prob = head(tgt_feats).softmax(-1)  # [B, C]
    return cmmd(src_feats, tgt_feats, src_labels, t_prob)


if __name__ == "__main__":
    args = argparse.Namespace(nc=65, dim=32, batch_size=40)  # Office-Home
    src = DataLoader(FeatureDomain(400, args.dim, args.nc, 0), batch_size=args.batch_size, shuffle=False)
    tgt = FeatureDomain(400, args.dim, args.nc, 1)
    head = torch.nn.Linear(args.dim, args.nc)
    batch = next(iter(src))
    tgt_feats = tgt.feats[: args.batch_size]
    with torch.no_grad():
        loss = train_step(args, batch, tgt_feats, head)

        # reference: pairwise loops
        xs, ys = batch
        pt = head(tgt_feats).softmax(-1)
        n = len(ys)
        k = lambda a, b: torch.exp(-(a - b).pow(2).sum() / 2.0).item()
        total = 0.0
        for i in range(n):
            for j in range(n):
                total += (1.0 if ys[i] == ys[j] else 0.0) * k(xs[i], xs[j])
                total += (pt[i] @ pt[j]).item() * k(tgt_feats[i], tgt_feats[j])
                total -= 2 * pt[j, ys[i]].item() * k(xs[i], tgt_feats[j])
        ref = total / (n * n)
    assert abs(loss.item() - ref) < 1e-4, (loss.item(), ref)
    print("ok")
