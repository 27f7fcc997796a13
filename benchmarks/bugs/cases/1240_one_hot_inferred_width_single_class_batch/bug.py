import torch
import torch.nn as nn
import torch.nn.functional as F


class PropertyHead(nn.Module):
    def __init__(self, in_dim, n_classes):
        super().__init__()
        self.n_classes = n_classes
        self.mlp = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, graph_emb):
        return self.mlp(graph_emb)

    def loss(self, logits, labels):
        targets = F.one_hot(labels).float()
        logp = F.log_softmax(logits, dim=-1)
        return -(targets * logp).sum(-1).mean()


def train_step(head, opt, emb, labels):
    opt.zero_grad()
    loss = head.loss(head(emb), labels)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    head = PropertyHead(in_dim=16, n_classes=2)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    emb = torch.randn(8, 16)
    mixed = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
    inactive_only = torch.zeros(8, dtype=torch.long)
    with torch.no_grad():
        logits = head(emb)
        print("loss, mixed batch        ", head.loss(logits, mixed).item(),
              "vs cross_entropy", F.cross_entropy(logits, mixed).item())
        print("loss, single-class batch ", head.loss(logits, inactive_only).item(),
              "vs cross_entropy", F.cross_entropy(logits, inactive_only).item())
    for _ in range(20):
        train_step(head, opt, emb, inactive_only)
    print("p(class 0) after training on class-0 batches:", head(emb).softmax(-1)[:, 0].mean().item())
