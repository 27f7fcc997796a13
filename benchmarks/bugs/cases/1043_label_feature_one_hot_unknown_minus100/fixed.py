import torch
import torch.nn.functional as F


class FinGraph:
    """Toy stand-in for a fraud-detection graph where unlabeled users carry y = -100."""

    def __init__(self, num_nodes, num_feats, num_classes, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(num_nodes, num_feats, generator=g)
        self.y = torch.randint(0, num_classes, (num_nodes,), generator=g)
        self.y[torch.rand(num_nodes, generator=g) < 0.4] = -100
        self.train_mask = self.y >= 0
        self.num_classes = num_classes


def add_label_feature(x, y, train_mask, num_classes):
    known = y.clamp(min=0)
    y_feat = F.one_hot(known, num_classes).float()
    y_feat = y_feat * train_mask.unsqueeze(-1)
    return torch.cat([x, y_feat], dim=-1)


def data_process(data):
    return add_label_feature(data.x, data.y, data.train_mask, data.num_classes)


if __name__ == "__main__":
    data = FinGraph(num_nodes=12, num_feats=5, num_classes=4)
    x = data_process(data)
    assert x.shape == (12, 5 + 4)
    for i in range(12):
        for c in range(4):
            expect = 1.0 if (data.y[i].item() == c) else 0.0
            assert x[i, 5 + c].item() == expect
        assert torch.equal(x[i, :5], data.x[i])
    print("ok")
