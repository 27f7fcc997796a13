import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader


class WineQualityDataset(Dataset):
    """Rows of 11 physico-chemical measurements followed by the quality score (0-9)."""

    def __init__(self, table: torch.Tensor):
        self.features = table[:, :-1]
        self.target = table[:, -1].long()

    def __len__(self):
        return self.features.shape[0]

    def __getitem__(self, i):
        return self.features[i], self.target[i]


def encode_targets(target: torch.Tensor, num_classes: int = 10) -> torch.Tensor:
    target_onehot = torch.zeros(target.shape[0], num_classes)
    target_onehot.scatter_(1, target.unsqueeze(1), 1.0)
    return target_onehot


def train_step(model, batch, optimizer):
    x, y = batch
    y_onehot = encode_targets(y)
    pred = torch.softmax(model(x), dim=1)
    loss = ((pred - y_onehot) ** 2).sum(dim=1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    measurements = torch.rand(64, 11)
    quality = torch.randint(3, 9, (64, 1)).float()
    table = torch.cat([measurements, quality], dim=1)
    loader = DataLoader(WineQualityDataset(table), batch_size=16, shuffle=True)
    model = nn.Linear(11, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ds = WineQualityDataset(table)
    y = ds.target[:8]
    onehot = encode_targets(y)
    ref = [[1.0 if c == int(y[r]) else 0.0 for c in range(10)] for r in range(8)]
    assert onehot.tolist() == ref
    for batch in loader:
        train_step(model, batch, opt)
    print("ok")
