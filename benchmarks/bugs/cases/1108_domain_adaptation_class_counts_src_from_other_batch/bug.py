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
    tgt_counts = torch.zeros(num_classes).scatter_add_(0, pseudo, torch.ones_like(src_labels, dtype=torch.float))
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
    with torch.no_grad():
        print("alignment losses:", train_epoch(cfg, encoder, head,
                                               DataLoader(src, batch_size=cfg.batch_size),
                                               DataLoader(tgt, batch_size=cfg.batch_size)))
