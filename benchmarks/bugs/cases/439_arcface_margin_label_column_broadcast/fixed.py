import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginHead(nn.Module):
    """Additive angular margin (ArcFace) classification head.

    Args:
        embedding_size: dimension E of the face embeddings.
        num_classes: number of identities C.
        s: logit scale.
        m: angular margin in radians.

    Forward:
        embeddings: (B, E) embeddings.
        labels: (B,) identity ids.

    Returns:
        (B, C) scaled logits, cos(theta + m) at each sample's label column, cos(theta) elsewhere.
    """

    def __init__(self, embedding_size, num_classes, s=64.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_classes, embedding_size) * 0.01)
        self.s, self.m = s, m

    def forward(self, embeddings, labels):
        cos_theta = F.linear(F.normalize(embeddings), F.normalize(self.weight)).clamp(-1 + 1e-7, 1 - 1e-7)
        cos_theta_m = torch.cos(torch.acos(cos_theta) + self.m)
        nB = embeddings.size(0)
        idx_ = torch.arange(0, nB, dtype=torch.long)
        labels = labels.view(-1)
        output = cos_theta.clone()
        output[idx_, labels] = cos_theta_m[idx_, labels]
        return output * self.s


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ArcMarginHead(embedding_size=16, num_classes=10)
    emb = torch.randn(6, 16)
    labels = torch.tensor([3, 7, 3, 1, 9, 0])
    logits = head(emb, labels)
    w = F.normalize(head.weight).detach()
    e = F.normalize(emb)
    for b in range(6):
        for c in range(10):
            cos = float((e[b] * w[c]).sum().clamp(-1 + 1e-7, 1 - 1e-7))
            ref = math.cos(math.acos(cos) + head.m) if c == int(labels[b]) else cos
            assert abs(logits[b, c].item() - head.s * ref) < 1e-3
    print("ok")
