from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class DAConfig:
    num_classes: int = 4
    feat_dim: int = 8
    batch_size: int = 64
    n_source: int = 84
    n_target: int = 128


def class_centroids(feats: Float[Tensor, "n d"], labels: Int[Tensor, "n"],
                    counts: Float[Tensor, "c"], num_classes: int) -> Float[Tensor, "c d"]:
    sums = torch.zeros(num_classes, feats.size(1)).index_add_(0, labels, feats)
    return sums / counts.clamp_min(1.0).unsqueeze(1)


def centroid_alignment_loss(src_feat: Float[Tensor, "ns d"], src_labels: Int[Tensor, "ns"],
                            tgt_feat: Float[Tensor, "nt d"], tgt_logits: Float[Tensor, "nt c"],
                            num_classes: int) -> Float[Tensor, ""]:
    pseudo = tgt_logits.argmax(dim=1)
    src_counts = torch.zeros(num_classes).scatter_add_(0, src_labels, torch.ones_like(src_labels, dtype=torch.float))
    tgt_counts = torch.zeros(num_classes).scatter_add_(0, pseudo, torch.ones_like(pseudo, dtype=torch.float))
    src_c = class_centroids(src_feat, src_labels, src_counts, num_classes)
    tgt_c = class_centroids(tgt_feat, pseudo, tgt_counts, num_classes)
    present = (src_counts > 0) & (tgt_counts > 0)
    return ((src_c - tgt_c) ** 2).sum(dim=1)[present].mean()


def train_epoch(cfg: DAConfig, encoder: nn.Module, head: nn.Module, src_loader, tgt_loader) -> list:
    losses = []
    for (xs, ys), (xt,) in zip(src_loader, tgt_loader):
        fs, ft = encoder(xs), encoder(xt)
        losses.append(centroid_alignment_loss(fs, ys, ft, head(ft), cfg.num_classes).item())
    return losses


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = DAConfig()
    src = TensorDataset(torch.randn(cfg.n_source, 16), torch.randint(0, cfg.num_classes, (cfg.n_source,)))
    tgt = TensorDataset(torch.randn(cfg.n_target, 16) + 0.5)
    encoder = nn.Linear(16, cfg.feat_dim)
    head = nn.Linear(cfg.feat_dim, cfg.num_classes)
    src_loader = DataLoader(src, batch_size=cfg.batch_size)
    tgt_loader = DataLoader(tgt, batch_size=cfg.batch_size)
    with torch.no_grad():
        losses = train_epoch(cfg, encoder, head, src_loader, tgt_loader)
        for ((xs, ys), (xt,)), got in zip(zip(src_loader, tgt_loader), losses):
            fs, ft = encoder(xs), encoder(xt)
            pseudo = head(ft).argmax(dim=1)
            ref, n = 0.0, 0
            for c in range(cfg.num_classes):
                a = [fs[i] for i in range(len(ys)) if ys[i] == c]
                b = [ft[i] for i in range(len(pseudo)) if pseudo[i] == c]
                if a and b:
                    ref += float(((sum(a) / len(a) - sum(b) / len(b)) ** 2).sum())
                    n += 1
            assert abs(got - ref / n) < 1e-4, (got, ref / n)
    assert len(losses) == 2
    print("ok")
