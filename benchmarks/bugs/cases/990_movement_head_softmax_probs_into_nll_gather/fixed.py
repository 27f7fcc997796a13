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
        return F.log_softmax(self.out(h[-1]), dim=1)


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
    import math
    torch.manual_seed(0)
    model = MovementHead()
    prices = torch.randn(32, 5, 12)
    labels = (prices[:, -1, 0] > 0).long()
    with torch.no_grad():
        _, h = model.gru(prices)
        logits = model.out(h[-1])
    ref = 0.0
    for b in range(32):
        row = logits[b].tolist()
        ref += math.log(sum(math.exp(v) for v in row)) - row[labels[b].item()]
    ref /= 32
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = train_step(model, opt, prices, labels)
    assert abs(loss - ref) < 1e-5
    print("ok")
