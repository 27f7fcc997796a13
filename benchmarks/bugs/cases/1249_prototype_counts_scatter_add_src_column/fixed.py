import torch
import torch.nn as nn
import torch.nn.functional as F


def class_prototypes(embeddings, labels, num_classes):
    index = labels.unsqueeze(1).expand_as(embeddings)
    sums = torch.zeros(num_classes, embeddings.size(1)).scatter_add_(0, index, embeddings)
    counts = torch.zeros(num_classes, embeddings.size(1)).scatter_add_(0, index, torch.ones_like(embeddings))
    return sums / counts.clamp(min=1)


class ProtoNetHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(cfg["in_dim"], cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], cfg["emb"]))
        self.n_way = cfg["n_way"]

    def forward(self, support_x, support_y, query_x):
        protos = class_prototypes(self.encoder(support_x), support_y, self.n_way)
        q = self.encoder(query_x)
        return -torch.cdist(q, protos) ** 2


def sample_episode(cfg, gen):
    support_y = torch.arange(cfg["n_way"]).repeat_interleave(cfg["k_shot"])
    support_x = torch.randn(len(support_y), cfg["in_dim"], generator=gen) + support_y[:, None].float()
    query_y = torch.arange(cfg["n_way"]).repeat_interleave(cfg["n_query"])
    query_x = torch.randn(len(query_y), cfg["in_dim"], generator=gen) + query_y[:, None].float()
    return support_x, support_y, query_x, query_y


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"in_dim": 6, "hidden": 16, "emb": 8, "n_way": 3, "k_shot": 2, "n_query": 2}
    head = ProtoNetHead(cfg)
    support_x, support_y, query_x, query_y = sample_episode(cfg, torch.Generator().manual_seed(1))
    with torch.no_grad():
        logits = head(support_x, support_y, query_x)
        emb = head.encoder(support_x)
        protos = []
        for c in range(cfg["n_way"]):
            rows = [emb[i] for i in range(len(support_y)) if int(support_y[i]) == c]
            protos.append(sum(rows) / len(rows))
        q = head.encoder(query_x)
        for i in range(len(query_y)):
            for c in range(cfg["n_way"]):
                ref = -float(((q[i] - protos[c]) ** 2).sum())
                assert abs(float(logits[i, c]) - ref) < 1e-4, (i, c)
    print("ok")
