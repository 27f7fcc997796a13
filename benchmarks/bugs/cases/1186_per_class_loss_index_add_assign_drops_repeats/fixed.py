import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = {"num_classes": 4, "features": 6, "batch": 12, "lr": 0.1, "seed": 3}


class ClassLossTracker:
    def __init__(self, num_classes):
        self.loss_sum = torch.zeros(num_classes)
        self.count = torch.zeros(num_classes)

    def update(self, per_sample_loss, targets):
        self.loss_sum.index_add_(0, targets, per_sample_loss.detach())
        self.count.index_add_(0, targets, torch.ones_like(per_sample_loss))

    def mean_loss(self):
        return self.loss_sum / self.count.clamp(min=1)


def make_batch(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    x = torch.randn(cfg["batch"], cfg["features"], generator=g)
    y = torch.randint(0, cfg["num_classes"], (cfg["batch"],), generator=g)
    return x, y


def train_step(model, opt, tracker, x, y):
    logits = model(x)
    per_sample = F.cross_entropy(logits, y, reduction="none")
    tracker.update(per_sample, y)
    loss = per_sample.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(CFG["seed"])
    model = nn.Linear(CFG["features"], CFG["num_classes"])
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"])
    tracker = ClassLossTracker(CFG["num_classes"])
    x, y = make_batch(CFG)
    with torch.no_grad():
        per_sample = F.cross_entropy(model(x), y, reduction="none")
    train_step(model, opt, tracker, x, y)
    sums = [0.0] * CFG["num_classes"]
    counts = [0.0] * CFG["num_classes"]
    for i in range(y.shape[0]):
        sums[int(y[i])] += float(per_sample[i])
        counts[int(y[i])] += 1
    assert tracker.count.tolist() == counts
    assert torch.allclose(tracker.loss_sum, torch.tensor(sums), atol=1e-5)
    print("ok")
