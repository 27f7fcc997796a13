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
    s_onehot = torch.zeros(s_label.size(0), 31).scatter_(1, s_label.unsqueeze(1), 1.0)  # [B, C]
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
    loss = train_step(args, batch, tgt.feats[: args.batch_size], head)
    print("cmmd loss:", loss.item())
