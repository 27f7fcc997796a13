import torch
import torch.nn as nn
import torch.nn.functional as F


class MovementHead(nn.Module):
    def __init__(self, n_feats=12, hidden=16, n_classes=2):
        super().__init__()
        self.gru = nn.GRU(n_feats, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, prices):
        # prices: [B, T, F] -> class scores [B, C]
        _, h = self.gru(prices)
        return F.softmax(self.out(h[-1]), dim=1)


def nll(scores, target):
    # scores: [B, C] per-class log-likelihoods, target: [B] class ids
    picked = scores.gather(1, target.unsqueeze(1)).squeeze(1)  # [B]
    return -picked.mean()


def train_step(model, optimizer, prices, labels):
    optimizer.zero_grad()
    loss = nll(model(prices), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MovementHead()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    prices = torch.randn(32, 5, 12)
    labels = (prices[:, -1, 0] > 0).long()
    loss = train_step(model, opt, prices, labels)
    print(f"training loss: {loss:.4f}")
