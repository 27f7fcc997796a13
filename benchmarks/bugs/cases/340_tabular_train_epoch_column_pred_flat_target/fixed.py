import torch
import torch.nn as nn

CONFIG = {"n_categories": 6, "emb_dim": 4, "n_cont": 3, "hidden": 16, "batch_size": 8, "lr": 0.05, "epochs": 2}


def mse(pred, target):
    return ((pred - target) ** 2).mean()


LOSSES = {"mse": mse}


class TabularModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg["n_categories"], cfg["emb_dim"])
        self.body = nn.Sequential(
            nn.Linear(cfg["emb_dim"] + cfg["n_cont"], cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], 1)
        )

    def forward(self, x_cat, x_cont):
        return self.body(torch.cat([self.emb(x_cat), x_cont], dim=1))


def make_dataset(cfg, n=32):
    g = torch.Generator().manual_seed(3)
    x_cat = torch.randint(0, cfg["n_categories"], (n,), generator=g)
    x_cont = torch.randn(n, cfg["n_cont"], generator=g)
    y = x_cont.sum(dim=1) + x_cat.float() * 0.1
    return torch.utils.data.TensorDataset(x_cat, x_cont, y)


def train_epoch(model, dl, opt, loss_func):
    model.train()
    total = 0.0
    for x_cat, x_cont, yb in dl:
        loss = loss_func(model(x_cat, x_cont).squeeze(-1), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
        total += loss.item()
    return total / len(dl)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TabularModel(CONFIG)
    dl = torch.utils.data.DataLoader(make_dataset(CONFIG), batch_size=CONFIG["batch_size"])
    opt = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"])
    x_cat, x_cont, yb = next(iter(dl))
    with torch.no_grad():
        pred = model(x_cat, x_cont)
        loss = LOSSES["mse"](pred.squeeze(-1), yb)
        ref = sum((pred[i, 0] - yb[i]) ** 2 for i in range(len(yb))) / len(yb)
    assert torch.allclose(loss, ref)
    for epoch in range(CONFIG["epochs"]):
        train_epoch(model, dl, opt, LOSSES["mse"])
    print("ok")
