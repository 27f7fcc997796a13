import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvEncoder(nn.Module):
    def __init__(self, in_channels=1, hidden=8, out_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_channels, hidden, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(hidden * 4, out_dim)

    def forward(self, x):
        # x: (N, C, H, W) -> (N, D)
        return self.fc(self.net(x).flatten(1))


def class_prototypes(support_emb, support_labels, n_way):
    # support_emb: (n_way * k_shot, D), support_labels: (n_way * k_shot,) in [0, n_way)
    D = support_emb.size(1)
    index = support_labels.unsqueeze(1).expand(-1, D)  # (n_way * k_shot, D)
    sums = torch.zeros(n_way, D).scatter_(0, index, support_emb)  # (n_way, D)
    counts = torch.bincount(support_labels, minlength=n_way).clamp(min=1)  # (n_way,)
    return sums / counts.unsqueeze(1)  # (n_way, D): mean embedding of each class


def episode_logits(encoder, support, support_labels, query, n_way):
    prototypes = class_prototypes(encoder(support), support_labels, n_way)  # (n_way, D)
    return -torch.cdist(encoder(query), prototypes) ** 2  # (n_query, n_way)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = ConvEncoder()
    n_way, k_shot = 3, 4
    support = torch.randn(n_way * k_shot, 1, 12, 12)
    support_labels = torch.arange(n_way).repeat(k_shot)  # (n_way * k_shot,)
    query = torch.randn(5, 1, 12, 12)
    with torch.no_grad():
        emb = encoder(support)
        protos = class_prototypes(emb, support_labels, n_way)
        means = torch.stack([emb[support_labels == c].mean(0) for c in range(n_way)])
    print("prototype norms:", [round(v, 4) for v in protos.norm(dim=1).tolist()])
    print("class-mean norms:", [round(v, 4) for v in means.norm(dim=1).tolist()])
