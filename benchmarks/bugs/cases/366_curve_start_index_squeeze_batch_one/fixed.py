import torch
import torch.nn as nn


class CurveStartSelector(nn.Module):
    """Picks the starting points of the curves in self-attention style."""

    def __init__(self, in_channel, curve_num):
        super().__init__()
        self.curve_num = curve_num
        self.att = nn.Conv1d(in_channel, 1, kernel_size=1, bias=False)

    def forward(self, x):
        x_att = torch.sigmoid(self.att(x))
        x = x * x_att
        _, start_index = torch.topk(x_att, self.curve_num, dim=2, sorted=False)
        start_index = start_index.squeeze(1)
        start_score = torch.gather(x_att.squeeze(1), 1, start_index)
        start_feat = torch.gather(x, 2, start_index.unsqueeze(1).expand(-1, x.size(1), -1))
        return start_feat * start_score.unsqueeze(1), start_index


class CurveHead(nn.Module):
    def __init__(self, in_channel=16, curve_num=5, num_classes=4):
        super().__init__()
        self.select = CurveStartSelector(in_channel, curve_num)
        self.fc = nn.Linear(in_channel, num_classes)

    def forward(self, x):
        start_feat, _ = self.select(x)
        return self.fc(start_feat.max(dim=2).values)


@torch.no_grad()
def evaluate(model, clouds):
    model.eval()
    return [model(c).argmax(-1) for c in clouds]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CurveHead()
    train_logits = model(torch.randn(8, 16, 64))
    clouds = [torch.randn(1, 16, 64) for _ in range(3)] + [torch.randn(4, 16, 64)]
    for x in clouds:
        with torch.no_grad():
            feat, idx = model.select(x)
            att = torch.sigmoid(model.select.att(x))
            xs = x * att
            for b in range(x.size(0)):
                top = set(att[b, 0].topk(5).indices.tolist())
                assert set(idx[b].tolist()) == top
                for k, n in enumerate(idx[b].tolist()):
                    assert torch.allclose(feat[b, :, k], xs[b, :, n] * att[b, 0, n])
    preds = evaluate(model, clouds)
    print("ok", [p.tolist() for p in preds])
