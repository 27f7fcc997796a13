import math

import torch
import torch.nn as nn
import torch.nn.functional as F

HEAD_CFG = {"embedding_size": 16, "num_classes": 10, "s": 64.0, "m": 0.5}


class AdditiveAngularMarginHead(nn.Module):
    def __init__(self, embedding_size, num_classes, s, m):
        super().__init__()
        self.kernel = nn.Parameter(torch.randn(embedding_size, num_classes) * 0.01)
        self.s, self.m = s, m

    def forward(self, embeddings, label):
        cos_theta = F.normalize(embeddings, dim=1) @ F.normalize(self.kernel, dim=0)
        cos_theta = cos_theta.clamp(-1 + 1e-7, 1 - 1e-7)
        target_logit = cos_theta[torch.arange(0, embeddings.size(0)), label].view(-1, 1)
        theta = torch.acos(target_logit)
        phi = torch.cos(theta + self.m)
        output = cos_theta.scatter(1, label.view(-1, 1), phi)
        return output * self.s


def collate(samples):
    feats = torch.stack([f for f, _ in samples])
    labels = torch.stack([torch.tensor([y]) for _, y in samples])
    return feats, labels


def make_batch(cfg, batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    samples = [(torch.randn(cfg["embedding_size"], generator=g), i % cfg["num_classes"]) for i in range(batch_size)]
    return collate(samples)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = AdditiveAngularMarginHead(**HEAD_CFG)
    feats, labels = make_batch(HEAD_CFG, batch_size=4)
    logits = head(feats, labels)
    loss = F.cross_entropy(logits, labels.view(-1))
    cos = F.normalize(feats, dim=1) @ F.normalize(head.kernel, dim=0)
    print("target logits:", logits.gather(1, labels).view(-1).tolist())
    print("expected     :", [HEAD_CFG["s"] * math.cos(math.acos(cos[i, labels[i, 0]].item()) + HEAD_CFG["m"]) for i in range(4)])
    print("loss:", loss.item())
